package toolfs

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// textCharsetNamer is implemented by a provider whose text may be stored in a charset other than
// UTF-8 (fs-local, fs-sandbox): TextCharset names it, "" for UTF-8.
type textCharsetNamer interface {
	TextCharset(ctx context.Context, t fs.Target) string
}

// The read envelope's charset line, between <type> and <content>, only for a file not in UTF-8
// (docs/tool-fs.md "The text the model sees"): `<charset>shift_jis</charset>`.
const (
	charsetOpen  = "</path>\n<type>file</type>\n<charset>"
	charsetClose = "</charset>\n<content>\n"
)

// textCharset is the charset a stream of target decodes from, "" for UTF-8 or a provider that
// only stores UTF-8. A whole read takes it from ReadText's outcome instead.
func textCharset(ctx context.Context, fsys fs.FileSystem, target fs.Target) string {
	if n, ok := fsys.(textCharsetNamer); ok {
		return n.TextCharset(ctx, target)
	}
	return ""
}

// charsetLineLen is the bytes the charset line adds to the envelope ("" adds none).
func charsetLineLen(cs string) int {
	if cs == "" {
		return 0
	}
	return len(charsetOpen+charsetClose) + len(cs) - len(envelopeMiddle)
}

// appendCharsetMiddle appends the envelope between the path and the content with the charset
// line in it.
func appendCharsetMiddle(b []byte, cs string) []byte {
	return append(append(append(b, charsetOpen...), cs...), charsetClose...)
}
