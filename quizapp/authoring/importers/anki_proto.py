"""Just enough protobuf to read the note types of a newer Anki collection (schema 18).

Anki 2.1.50 and later keep a note type's kind (normal or cloze) and each card template's
question format in protobuf blobs (`notetypes.config`, `templates.config`), not in the
`col` table's JSON. Only two fields are needed, so this reads the wire format directly
instead of pulling in protobuf and Anki's schema: `NotetypeConfig.kind` (field 1, an enum:
1 is cloze) and `CardTemplateConfig.q_format` (field 1, a string). The blob is untrusted, so
a malformed one gives an empty result, never an exception or a loop past its end.
"""

from __future__ import annotations

_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5
CLOZE_KIND = 1


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("truncated varint")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def top_level_fields(data: bytes) -> dict[int, list[int | bytes]]:
    """The message's top-level fields: number -> values (ints for varints, bytes for
    length-delimited fields); fixed-width fields are skipped. Empty when malformed."""
    fields: dict[int, list[int | bytes]] = {}
    at = 0
    try:
        while at < len(data):
            key, at = _varint(data, at)
            number, wire = key >> 3, key & 7
            if wire == _VARINT:
                value, at = _varint(data, at)
                fields.setdefault(number, []).append(value)
            elif wire == _BYTES:
                length, at = _varint(data, at)
                if at + length > len(data):
                    raise ValueError("field runs past the end")
                fields.setdefault(number, []).append(data[at : at + length])
                at += length
            elif wire in (_FIXED64, _FIXED32):
                at += 8 if wire == _FIXED64 else 4
            else:
                raise ValueError(f"wire type {wire}")
    except ValueError:
        return {}
    return fields


def notetype_is_cloze(config: bytes) -> bool:
    kind = top_level_fields(config).get(1, [0])[0]
    return kind == CLOZE_KIND


def template_question_format(config: bytes) -> str:
    value = top_level_fields(config).get(1, [b""])[0]
    if not isinstance(value, bytes):
        return ""
    return value.decode("utf-8", errors="replace")


__all__ = ["notetype_is_cloze", "template_question_format", "top_level_fields"]
