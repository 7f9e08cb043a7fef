"""Reading a spreadsheet's CSV file: its encoding, its delimiter, then its records.

Encodings. UTF-8, with or without a byte-order mark (Excel's "CSV UTF-8"), and UTF-16 with
one (Excel's "Unicode Text") are recognised. Anything else must be named (`--encoding
cp1252`): a file that is not UTF-8 is refused with that advice, since guessing a legacy
encoding silently garbles accents.

Delimiters. Excel writes the regional list separator: a comma, or a semicolon where the
decimal separator is a comma (even under "CSV UTF-8 (comma delimited)"); "Unicode Text" is
tab-separated. `quizapp.authoring.csv_import.columns.sniff_delimiter` picks one from the
header; `--delimiter` overrides the guess.

Rows. A record is numbered as the spreadsheet numbers its row: blank lines count, a cell
spanning lines does not add rows.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from quizapp.authoring.csv_import.problems import CsvInputError
from quizapp.bank.fields import DEFAULT_CSV_ROWS, MAX_DECK_QUESTIONS

# Rows one import reads by default (--max-rows), and the most it may be raised to: a deck's
# size in the bank (quizapp.bank.fields.MAX_DECK_QUESTIONS).
DEFAULT_MAX_ROWS = DEFAULT_CSV_ROWS
MAX_ROWS_LIMIT = MAX_DECK_QUESTIONS
# A CSV larger than this is refused before it is read: 5,000 rows of 12 KiB each.
MAX_CSV_BYTES = 64 * 1024 * 1024

UTF8_BOM = codecs.BOM_UTF8
UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
# The delimiters a spreadsheet writes, in the order a tie is resolved.
DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}
DELIMITER_WORDS = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t"}
_FIX_ENCODING = (
    "save it as 'CSV UTF-8 (comma delimited)', or name its encoding with --encoding "
    "(e.g. --encoding cp1252 for Excel's 'CSV (comma delimited)' on Windows)"
)


@dataclass(frozen=True)
class CsvText:
    text: str  # without a byte-order mark
    encoding: str  # the codec's name, as Python spells it
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Record:
    line: int  # the file line the record starts on
    row: int  # the spreadsheet row: 1 for the first record
    cells: list[str]

    @property
    def blank(self) -> bool:
        return not any(cell.strip() for cell in self.cells)


def check_encoding(name: str) -> str:
    """The codec's canonical name. Raises ValueError for an unknown or non-text codec."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise ValueError(f"unknown encoding {name!r} (e.g. utf-8, cp1252, latin-1)") from None
    try:
        b"a".decode(name)  # refuses codecs that are not text encodings (base64, zlib)
    except LookupError:
        raise ValueError(f"{name!r} is not a text encoding (e.g. utf-8, cp1252)") from None
    except UnicodeDecodeError:
        pass  # a text encoding that needs more than one byte (utf-16)
    return info.name


def parse_delimiter(value: str) -> str:
    """`--delimiter`: one character, or comma / semicolon / tab. Raises ValueError."""
    if value.lower() in DELIMITER_WORDS:
        return DELIMITER_WORDS[value.lower()]
    if len(value) != 1 or value in "\"'\r\n" or value.isalnum():
        raise ValueError(
            f"{value!r} is not a delimiter: give one character such as , or ; (or the word tab)"
        )
    return value


def read_csv_file(path: str | Path, encoding: str | None = None) -> CsvText:
    """The file's text. Raises CsvInputError when it cannot be read as CSV text."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_CSV_BYTES:
            raise CsvInputError(
                f"{path}: {size:,} bytes; a CSV is at most {MAX_CSV_BYTES:,} (split the file)"
            )
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise CsvInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_csv(raw, str(path), encoding)


def read_csv_text(path: str | Path, encoding: str | None = None) -> str:
    return read_csv_file(path, encoding).text


def decode_csv(raw: bytes, path: str, encoding: str | None = None) -> CsvText:
    """Decode by the rules in the module docstring. Raises CsvInputError."""
    if encoding is not None:
        return _decode_named(raw, path, check_encoding(encoding))
    if raw.startswith(UTF8_BOM):
        return CsvText(_decode(raw[len(UTF8_BOM) :], path, "utf-8"), "utf-8")
    if raw.startswith(UTF16_BOMS):
        return CsvText(_decode(raw, path, "utf-16").removeprefix("\ufeff"), "utf-16")
    if b"\x00" in raw:
        if order := _utf16_without_bom(raw):
            raise CsvInputError(
                f"{path} looks like UTF-16 text without a byte-order mark; "
                f"read it with --encoding {order}"
            )
        raise CsvInputError(f"{path} is a binary file, not CSV text")
    return CsvText(_decode(raw, path, "utf-8", hint=_FIX_ENCODING), "utf-8")


def _decode_named(raw: bytes, path: str, encoding: str) -> CsvText:
    text = _decode(raw, path, encoding).removeprefix("\ufeff")
    if "\x00" in text:
        raise CsvInputError(f"{path} is a binary file (or not {encoding} text)")
    warnings = []
    if not encoding.startswith("utf") and not raw.isascii() and _is_utf8(raw):
        warnings.append(
            f"{path} reads as UTF-8 text: read as {encoding}, its accents and symbols may come "
            "out garbled (é as Ã©); leave out --encoding to read it as UTF-8"
        )
    return CsvText(text, encoding, warnings)


def _decode(raw: bytes, path: str, encoding: str, hint: str | None = None) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].decode(encoding, errors="replace").count("\n") + 1
        name = "UTF-8" if encoding == "utf-8" else encoding
        message = f"{path} is not {name} text (byte 0x{raw[exc.start]:02x} on line {line})"
        raise CsvInputError(message + (f"; {hint}" if hint else "")) from None


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _utf16_without_bom(raw: bytes) -> str | None:
    """utf-16-le or utf-16-be when most characters have a zero high byte, as ASCII-heavy text
    in UTF-16 does; else None."""
    pairs = len(raw) // 2
    if pairs == 0 or len(raw) % 2:
        return None
    if raw[1::2].count(0) > 0.8 * pairs and raw[0::2].count(0) < 0.2 * pairs:
        return "utf-16-le"
    if raw[0::2].count(0) > 0.8 * pairs and raw[1::2].count(0) < 0.2 * pairs:
        return "utf-16-be"
    return None


def records(text: str, delimiter: str = ",") -> Iterator[Record]:
    """Every record, with the line it starts on and its spreadsheet row, one at a time."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    line = 1
    try:
        for row, cells in enumerate(reader, start=1):
            yield Record(line, row, cells)
            line = reader.line_num + 1
    except csv.Error as exc:
        raise CsvInputError(f"line {reader.line_num}: not valid CSV: {exc}") from None


def filled_records(text: str, delimiter: str, max_rows: int, path: str) -> list[Record]:
    """The records that are not blank, the header's and at most `max_rows` more.

    Raises CsvInputError at the first record past the limit: the rest of the file is never
    split into cells, so a file of a million rows costs no more than one of `max_rows`.
    """
    kept: list[Record] = []
    for record in records(text, delimiter):
        if record.blank:
            continue
        if len(kept) > max_rows:  # the header and max_rows rows are in
            raise CsvInputError(
                f"{path}:{record.line}: more than {max_rows:,} rows; split the file, or raise "
                f"--max-rows (at most {MAX_ROWS_LIMIT:,}, a deck's size)"
            )
        kept.append(record)
    return kept


def first_record(text: str, delimiter: str) -> list[str]:
    """The first record that is not blank (the header), split at `delimiter`."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                return cells
    except csv.Error:
        pass
    return []


def describe_delimiter(delimiter: str) -> str:
    return DELIMITERS.get(delimiter, repr(delimiter))


__all__ = [
    "DEFAULT_MAX_ROWS",
    "DELIMITERS",
    "MAX_CSV_BYTES",
    "MAX_ROWS_LIMIT",
    "CsvText",
    "Record",
    "check_encoding",
    "decode_csv",
    "describe_delimiter",
    "filled_records",
    "first_record",
    "parse_delimiter",
    "read_csv_file",
    "read_csv_text",
    "records",
]
