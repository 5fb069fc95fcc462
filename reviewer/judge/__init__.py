"""The LLM judge: an Ollama client with a request cache, prompts, and the second opinion.

* ``client``: ``JudgeClient`` (structured output, bounded retries, one-line fault messages,
  byte-identical requests answered from the store);
* ``schema``: the JSON schema of a verdict reply (rationale before verdict);
* ``prompts``: the French prompt templates, editable and versioned in the store;
* ``verdicts``: ``judge_case`` (render a case, send it, read one verdict per criterion);
* ``second_opinion``: the seed's ``revoirReussites`` (a doubted success criterion re-judged
  alone);
* ``batch``: second opinions for many attempts with bounded parallelism, resumable;
* ``selection``: which attempts ``reviewer rejudge`` looks at.

See docs/judge.md.
"""
