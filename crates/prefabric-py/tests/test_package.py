"""The package as a user meets it: its names, stubs and help texts."""

import ast
import inspect
import pathlib

import prefabric

STUBS = pathlib.Path(prefabric.__file__).with_name("__init__.pyi")


def test_the_stubs_describe_what_the_module_has():
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    assert {c.name for c in classes} | {"stats", "ROLE_NAMES", "__version__"} == set(prefabric.__all__)
    for node in classes:
        runtime = getattr(prefabric, node.name)
        members = [n.name for n in node.body if isinstance(n, ast.FunctionDef) and n.name != "__init__"]
        members += [n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and not issubclass(runtime, BaseException)]
        for name in members:
            assert hasattr(runtime, name), f"{node.name}.{name} is in the stubs but not in the module"
    # And the other way: every public member of a class is in its stubs.
    for node in classes:
        runtime = getattr(prefabric, node.name)
        if issubclass(runtime, BaseException):
            continue
        stubbed = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
            n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        public = {name for name in vars(runtime) if not name.startswith("_")}
        assert public <= stubbed, f"{node.name}: {sorted(public - stubbed)} missing from the stubs"


def test_every_class_and_method_has_a_docstring():
    for name in prefabric.__all__:
        thing = getattr(prefabric, name)
        if isinstance(thing, type):
            assert thing.__doc__ and len(thing.__doc__) > 20, name
            for member, value in vars(thing).items():
                if member.startswith("_") or member == "role_names":
                    continue
                if callable(value) or inspect.isgetsetdescriptor(value) or isinstance(value, staticmethod):
                    assert getattr(value, "__doc__", None), f"{name}.{member} has no docstring"
    assert prefabric.stats.__doc__ and "seeds" in prefabric.stats.__doc__
    assert "Generator(pack, map_type" in prefabric.Generator.__doc__
    assert str(inspect.signature(prefabric.Generator)) == "(pack, map_type, depth=1, size=None, *, trace=False)"


def test_the_package_is_typed():
    assert STUBS.with_name("py.typed").is_file()
    assert prefabric.__version__.count(".") == 2
    assert prefabric.Error.__module__ == "prefabric" and issubclass(prefabric.PackError, prefabric.Error)
