"""The `prefabric` command's LDtk export against LDtk's own JSON schema.

The schema (`shared/testdata/ldtk/JSON_SCHEMA.json`, LDtk 1.5.3, draft 7) is
checked with `fastjsonschema`, which compiles a schema into Python code (50
ms a map where a walking validator takes half a second), here rather than in
`cargo test`: a JSON Schema validator crate was the slowest dependency of the
Rust test build, and this environment already holds the project's Python
tools. The validator is first shown to accept LDtk's own sample projects and to
reject broken ones, so a pass means something; then every built-in map type,
seeds 1-20, and a world must pass. The Rust side (`tests/suite/ldtk.rs`) reads
the same exports back with an LDtk reader crate.
"""

import copy
import json
import os
import pathlib

import pytest

fastjsonschema = pytest.importorskip("fastjsonschema")

REPO = pathlib.Path(__file__).resolve().parents[3]
LDTK = REPO.parent / "shared" / "testdata" / "ldtk"
SAMPLES = ["Entities.ldtk", "Typical_TopDown_example.ldtk"]
MAP_TYPES = sorted(p.stem for p in (REPO / "content" / "default" / "maps").glob("*.toml"))


@pytest.fixture(scope="module")
def validators():
    """LDtk's schema as written, and a strict copy whose project (the root) may
    hold no key the schema does not name but `__header__`, as every other type
    of the schema already says of itself: so a misspelt field fails anywhere."""
    path = LDTK / "JSON_SCHEMA.json"
    if not path.is_file():
        message = f"{path} is missing (the shared test data)"
        if os.environ.get("PREFABRIC_REQUIRE_TESTDATA") == "1":
            pytest.fail(message)
        pytest.skip(message)
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["version"] == "1.5.3", "the export follows the schema's LDtk version"
    strict = copy.deepcopy(schema)
    strict["LdtkJsonRoot"]["properties"]["__header__"] = {"type": "object"}
    strict["LdtkJsonRoot"]["additionalProperties"] = False
    return Validator(schema), Validator(strict)


class Validator:
    """A compiled draft 7 schema: `problems` lists what is wrong (the first
    problem found, with where it is), `is_valid` says whether anything is."""

    def __init__(self, schema):
        self.check = fastjsonschema.compile(schema)

    def problems(self, project):
        try:
            self.check(project)
        except fastjsonschema.JsonSchemaValueException as error:
            return [f"{error.message} (rule {error.rule}) at {error.name}"]
        return []

    def is_valid(self, project):
        return not self.problems(project)


def export(cli, tmp_path, *args):
    """The project `prefabric ARGS --format ldtk` writes, parsed."""
    out = tmp_path / "map.ldtk"
    cli("generate", *args, "--format", "ldtk", "--out", out)
    return json.loads(out.read_text(encoding="utf-8"))


def test_ldtks_own_samples_pass(validators):
    lenient, strict = validators
    for name in SAMPLES:
        project = json.loads((LDTK / name).read_text(encoding="utf-8"))
        assert lenient.problems(project) == [], name
        assert strict.problems(project) == [], f"{name} (strict)"


def test_the_schema_rejects_a_broken_project(validators, cli, tmp_path):
    lenient, strict = validators
    good = export(cli, tmp_path, "--map-type", "maze", "--seed", "1")
    assert lenient.is_valid(good)

    missing = copy.deepcopy(good)
    del missing["levels"][0]["layerInstances"][0]["__cWid"]
    assert not lenient.is_valid(missing), "a layer without its width"
    wrong = copy.deepcopy(good)
    wrong["defs"]["layers"][1]["type"] = "Pixels"
    assert not lenient.is_valid(wrong), "a layer type LDtk does not know"
    misspelt = copy.deepcopy(good)
    misspelt["levels"][0]["worldx"] = 0
    assert not lenient.is_valid(misspelt), "a level key the schema does not name"
    misspelt = copy.deepcopy(good)
    misspelt["jsonversion"] = "1.5.3"
    assert lenient.is_valid(misspelt) and not strict.is_valid(misspelt), "a project key the schema does not name"


@pytest.mark.parametrize("map_type", MAP_TYPES)
def test_every_map_type_passes_the_schema(validators, cli, tmp_path, map_type):
    # The strict schema only adds a rule, so what it accepts the schema accepts.
    _, strict = validators
    for seed in range(1, 21):
        project = export(cli, tmp_path, "--map-type", map_type, "--seed", seed)
        assert strict.problems(project) == [], f"{map_type} seed {seed}"


def test_a_world_passes_the_schema(validators, cli, tmp_path):
    _, strict = validators
    cli("world", "--levels", "3", "--seed", "7", "--format", "ldtk", "--out", tmp_path / "run")
    project = json.loads((tmp_path / "run" / "world.ldtk").read_text(encoding="utf-8"))
    assert len(project["levels"]) == 3
    assert strict.problems(project) == []
