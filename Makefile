# The project's verbs. Everything runs in .venv, made from pyproject.toml.
PY := .venv/bin/python
export PYTHONPATH := $(CURDIR)

.PHONY: install generate check test bench demo train clean

install: .venv/.installed

.venv/.installed: pyproject.toml
	python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,torch]'
	touch $@

generate: install
	$(PY) -m codegen

check: install
	$(PY) -m codegen --check
	$(PY) -m black --check --quiet $(wildcard codegen runtime tests benches examples)

test: check
	$(PY) -m pytest

bench: install
	$(PY) benches/run.py

demo: install
	$(PY) -m codegen
	$(PY) examples/demo.py

train: install
	$(PY) examples/digits_cnn.py

clean:
	rm -rf .venv
