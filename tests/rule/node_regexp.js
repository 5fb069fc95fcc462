// The reference the ECMAScript dialect is tested against: Node's own RegExp.
// Reads one JSON array [source, flags, text] per line on stdin and answers one JSON line:
// {"error": message} when `new RegExp(source, flags)` throws, else
// {"test": RegExp(source, flags).test(text), "spans": [[start, end], ...], "units": [...]}
// with every match of text.matchAll (flag g added), as code point offsets (a match
// starting or ending inside a surrogate pair covers that whole character; an empty match
// is empty) and, in "units", as JavaScript's own UTF-16 offsets.
"use strict";
const readline = require("readline");

function codePointIndex(text) {
  // index[u] = the code point that UTF-16 unit u belongs to; index[length] = the count.
  const index = [];
  let cp = 0;
  for (let u = 0; u < text.length; cp++) {
    const wide = text.codePointAt(u) > 0xffff;
    index.push(cp);
    if (wide) index.push(cp);
    u += wide ? 2 : 1;
  }
  index.push(cp);
  return index;
}

function answer([source, flags, text]) {
  let re;
  try {
    re = new RegExp(source, flags);
  } catch (e) {
    return { error: String(e.message) };
  }
  const test = re.test(text);
  const all = new RegExp(source, flags.includes("g") ? flags : flags + "g");
  const index = codePointIndex(text);
  const spans = [];
  const units = [];
  for (const m of text.matchAll(all)) {
    const end = m.index + m[0].length;
    const start = index[m.index];
    spans.push([start, end === m.index ? start : index[end - 1] + 1]);
    units.push([m.index, end]);
  }
  return { test, spans, units };
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
});
