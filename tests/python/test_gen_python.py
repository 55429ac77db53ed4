"""tools/codegen/gen_python.py: which table each YAML entry lands in."""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "codegen"))
import gen_native  # noqa: E402
import gen_python  # noqa: E402

YAML = """
- func: foo(Tensor self) -> Tensor
  variants: function, method
  dispatch:
    CPU: foo
- func: foo.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: foo_out
- func: foo_(Tensor(a!) self) -> Tensor(a!)
  variants: method
  dispatch:
    CPU: foo_
- func: linalg_bar(Tensor self) -> Tensor
  python_module: linalg
  dispatch:
    CPU: linalg_bar
"""


def tables_for(tmp_path, text):
    path = tmp_path / "native_functions.yaml"
    path.write_text(text)
    return gen_python.tables(gen_native.load(str(path)))


def test_variants_and_python_modules(tmp_path):
    functions, methods, modules = tables_for(tmp_path, YAML)
    assert functions == {"foo": ["aten::foo", "aten::foo.out"]}
    assert methods == {"foo": ["aten::foo"], "foo_": ["aten::foo_"]}
    assert modules == {"linalg": {"bar": ["aten::linalg_bar"]}}
    text = gen_python.render(functions, methods, modules)
    namespace = {}
    exec(compile(text, "_ops_table.py", "exec"), namespace)
    assert namespace["FUNCTIONS"]["foo"] == ("aten::foo", "aten::foo.out")


def test_unknown_python_module_is_refused(tmp_path):
    bad = YAML.replace("python_module: linalg", "python_module: nowhere")
    with pytest.raises(gen_native.ValidationError, match="unknown module 'nowhere'"):
        tables_for(tmp_path, bad)


def test_the_real_yaml_binds_every_entry():
    functions, methods, modules = gen_python.tables(
        gen_native.load(str(ROOT / "core" / "native" / "native_functions.yaml")))
    assert "add" in functions and "add_" in methods
    assert modules["linalg"]["vector_norm"][0] == "aten::linalg_vector_norm"
