"""The LLM judge: an Ollama client with a request cache, prompts, and the second opinion.

* ``client``: ``JudgeClient`` (structured output, bounded retries, one-line fault messages,
  byte-identical requests answered from the store);
* ``transport``: one request under one deadline, every fault classified (shared with the
  judge grader, no database);
* ``context``: ``num_ctx`` sized to the prompt, ``num_predict`` always set, a cut prompt or
  reply detected;
* ``guard``: whether a second opinion is reliable enough to replace the first;
* ``reassess``: the stored second opinions put through the guard again;
* ``schema``: the JSON schema of a verdict reply (rationale before verdict);
* ``prompts``: the French prompt templates, editable and versioned in the store;
* ``verdicts``: ``judge_case`` (render a case, send it, read one verdict per criterion);
* ``second_opinion``: the seed's ``revoirReussites`` (a doubted success criterion re-judged
  alone);
* ``batch``: second opinions for many attempts with bounded parallelism, resumable;
* ``selection``: which attempts ``reviewer rejudge`` looks at.

See docs/judge.md.
"""
