# The nbformat oracle of internal/notebook's tests: reads a JSON request on stdin and answers, on
# stdout, what nbformat itself makes of each case (docs/notebooks.md "Jupyter's own bytes").
#
# Request: {"cases": [{"text": <notebook text>, "mode": "none"|"replace"|"insert"|"delete",
#   "index": <cell index; insert: the cell after which, -1 for the start>, "source": <new source>,
#   "type": <cell type or "">, "id": <new cell id or "">, "ours": <a text to compare, or null>}]}
# Answer: [{"text": <nbformat.write's output>, "invalid": <validation error or null>,
#   "same": <whether nbformat reads "ours" as the notebook it wrote, or null>}]
import json
import sys
import warnings

import nbformat
from nbformat import v4

warnings.simplefilter("ignore")

MAKERS = {"code": v4.new_code_cell, "markdown": v4.new_markdown_cell, "raw": v4.new_raw_cell}


def edit(case):
    nb = nbformat.reads(case["text"], as_version=nbformat.NO_CONVERT)
    mode, i, src, typ = case["mode"], case["index"], case["source"], case.get("type") or ""
    if mode == "replace":
        c = nb.cells[i]
        old = c.cell_type
        if typ and typ != old:
            c.cell_type = typ
            if typ != "code":
                c.pop("outputs", None)
                c.pop("execution_count", None)
            else:
                c.pop("attachments", None)
                if old != "code":
                    c.execution_count = None
                    c.outputs = []
        c.source = src
    elif mode == "insert":
        c = MAKERS[typ](source=src)
        if case.get("id"):
            c.id = case["id"]
        else:
            del c["id"]
        nb.cells.insert(i + 1, c)
    elif mode == "delete":
        del nb.cells[i]
    elif mode == "write":
        # Write a notebook given as plain JSON data the way Jupyter saves one.
        nb = nbformat.from_dict(json.loads(case["text"]))
    s = nbformat.writes(nb)
    if not s.endswith("\n"):
        s += "\n"
    invalid = None
    same = None
    if case.get("ours") is not None:
        # Read without validation, which would give a cell without an id a random one.
        ours = nbformat.reader.reads(case["ours"])
        theirs = nbformat.reader.reads(s)
        # nbformat also replaces a duplicate id with a random one; the library keeps it.
        ids = [c.get("id") for c in ours.cells]
        if len(ours.cells) == len(theirs.cells):
            for a, b in zip(ours.cells, theirs.cells):
                if "id" not in a or ids.count(a["id"]) > 1:
                    a.pop("id", None)
                    b.pop("id", None)
        same = ours == theirs
    try:
        nbformat.validate(nbformat.reads(s, as_version=nbformat.NO_CONVERT))
    except Exception as e:  # noqa: BLE001
        invalid = str(e)[:500]
    return {"text": s, "invalid": invalid, "same": same}


def main():
    req = json.load(sys.stdin)
    out = []
    for case in req["cases"]:
        try:
            out.append(edit(case))
        except Exception as e:  # noqa: BLE001
            out.append({"text": "", "invalid": "oracle failed: %s: %s" % (type(e).__name__, e)})
    json.dump(out, sys.stdout)


main()
