"""The JSON Schema of the character file: one branch per known system, chosen by ``system``."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from sheet_app import registry
from sheet_app.model import FORMAT_VERSION


def json_schema() -> dict[str, Any]:
    """Every field with its description. ``format``, ``version`` and ``system`` are
    required (the loader refuses a file without them, so the schema says so too)."""
    models = [system.model for system in registry.all_systems()]
    union: Any = models[0]
    for model in models[1:]:
        union = union | model
    tagged: Any = Annotated[union, Field(discriminator="system")]
    schema = TypeAdapter(tagged).json_schema(by_alias=True)
    for model in models:
        definition = schema["$defs"][model.__name__]
        definition["required"] = ["format", "version", "system"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"sheet-app character, format version {FORMAT_VERSION}",
        **schema,
    }
