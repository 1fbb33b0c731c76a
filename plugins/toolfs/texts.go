package toolfs

import (
	_ "embed"
	"strings"

	"github.com/cordon-dev/cordon/internal/texts"
)

// The model-facing texts of read, write and edit, from texts.json beside this file: the one place
// they are written (docs/texts.md). docs/tool-fs.md quotes them; the tests and the e2e scripts
// read and render the same file.
var (
	// snippet: docs/texts.md embed
	//go:embed texts.json
	textsJSON []byte
	fsText    = texts.MustParse("plugins/toolfs/texts.json", textsJSON)
	// end snippet

	readDescription  = fsText.Text("read.description")
	writeDescription = fsText.Text("write.description")
	editDescription  = fsText.Text("edit.description")

	envelopeText = fsText.Template("read.envelope", "path", "body")
	// snippet: docs/texts.md footers
	footerCapped = fsText.Template("read.footer.capped", "offset", "end", "next")
	footerWindow = fsText.Template("read.footer.window", "offset", "end", "total", "next")
	footerEnd    = fsText.Template("read.footer.end", "total")
	// end snippet

	lineTruncated  = fsText.Template("read.line.truncated", "chars")
	writeSuccess   = fsText.Template("write.success", "envelope", "counts")
	countsNew      = fsText.Template("write.counts.new", "lines")
	countsUnknown  = fsText.Template("write.counts.unknown", "lines")
	countsReplaced = fsText.Template("write.counts.replaced", "lines", "before")
	linesMany      = fsText.Template("lines.many", "n")
	editSuccess    = fsText.Template("edit.success", "path")
	editSuccessAll = fsText.Template("edit.success.replace_all", "path", "replaced")
)

// The read envelope's literal parts around the display path and the body.
var envelopeHead, envelopeMiddle, envelopeTail = envelopeParts()

func envelopeParts() (head, middle, tail string) {
	const p, b = "\x00path\x00", "\x00body\x00"
	s := envelopeText.Render(p, b)
	i, j := strings.Index(s, p), strings.Index(s, b)
	if i < 0 || j < i {
		panic("toolfs: texts.json: read.envelope must hold {path}, then {body}")
	}
	return s[:i], s[i+len(p) : j], s[j+len(b):]
}
