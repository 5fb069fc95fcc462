"""Where ``scripts/build_compiled.py exports`` puts the compiled copies of the corpus
exports (``reviewer.exports.compiled``): build products, ignored by git."""
