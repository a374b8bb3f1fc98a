# The project's verbs. Everything runs in .venv, made from pyproject.toml.
PY := .venv/bin/python
export PYTHONPATH := $(CURDIR)

.PHONY: install generate check format test test-op bench demo train clean
# The Python sources black keeps in style (generated/ is the generator's: `make generate`).
STYLED := codegen runtime burnpy tests benches examples

install: .venv/.installed runtime/.extensions.built

.venv/.installed: pyproject.toml
	python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,torch]'
	# torchvision's model definitions, for the ONNX import tests' real models. Its wheel pins a
	# newer torch (a CUDA build); its Python model code runs on this torch without its C extension.
	$(PY) -m pip install --quiet --no-deps 'torchvision==0.29.1'
	# What the tests' background jobs read that changes only with the packages, made once here
	# (where it is missing, the tests make it again, and say why it fails): ONNX's node suite per
	# onnx version (onnx makes its 1,884 cases in Python, which takes a while), transformers'
	# BERT and GPT-2 and torchvision's ResNet-18 and a small transformer exported by torch's exporters
	-$(PY) -c "import sys; from burnpy.onnx import conformance; conformance.cases(sys.prefix + '/onnx-node-cases')"
	-HF_HUB_OFFLINE=1 $(PY) tests/hf_exports.py
	-$(PY) tests/model_exports.py
	# mypy's cache of the typing tests' checks (tests/test_typing.py), which they start from
	-$(PY) -m mypy --cache-dir .venv/mypy-cache --exclude examples/myops/ tests/fixtures/typed_user.py examples > /dev/null
	-MYPYPATH=$(CURDIR)/examples $(PY) -m mypy --cache-dir .venv/mypy-cache examples/myops > /dev/null
	touch $@ runtime/.extensions.built

# The C extensions (pyproject.toml's ext-modules), built in place again when a source changes.
runtime/.extensions.built: runtime/plain_arm.c runtime/autodiff/new_node.c \
		runtime/backends/torch_sum.c runtime/backends/winograd.c runtime/c_wrapper.h \
		.venv/.installed
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

generate: install
	$(PY) -m codegen

check: install
	$(PY) -m codegen --check
	@$(PY) -m black --check --quiet $(STYLED) 2>/dev/null || { \
		echo "black would reformat:"; \
		$(PY) -m black --check $(STYLED) 2>&1 | sed -n 's|^would reformat $(CURDIR)/|  |p'; \
		echo "run \`make format\` and commit the result"; exit 1; }

format: install
	$(PY) -m black --quiet $(STYLED)

test: check
	$(PY) -m pytest

# One op's tests, e.g. `make test-op OP=float_mul`: its spec-driven checks (every backend, dtype
# and device, its gradients) and every other test parametrised by it.
test-op: install
	@test -n "$(OP)" || { echo "name the op: make test-op OP=float_mul"; exit 2; }
	$(PY) -m pytest --op $(OP)

bench: install
	$(PY) benches/run.py

demo: install
	$(PY) -m codegen --check
	$(PY) examples/demo.py

train: install
	$(PY) examples/digits_cnn.py

clean:
	rm -rf .venv
