package toolfs

import (
	"context"
	"errors"
	"strings"

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

// charsetGuidance is the line read and edit add to an `invalid UTF-8 text` refusal
// (docs/encodings.md): how to declare the charset of a file that is text in another one.
const charsetGuidance = "If it is text in another charset, declare it: an `encodings` entry {glob, charset} in the provider config, or `charset` in .editorconfig."

// withCharsetGuidance adds charsetGuidance as the second line of an `invalid UTF-8 text`
// refusal (FS_NOT_TEXT, its first line unchanged, the original as its cause); any other error
// is returned as it is.
func withCharsetGuidance(err error) error {
	fe, ok := errors.AsType[*fs.Error](err)
	if !ok || fe.Kind != fs.CodeNotText || !strings.HasSuffix(fe.Message, ": invalid UTF-8 text") {
		return err
	}
	return fs.NewError(fs.CodeNotText, fe.Message+"\n"+charsetGuidance, err)
}

// notInCharset is read's refusal of a file that is not text in its declared charset (`cannot
// read "<p>": not <charset> text (...)`) in verb's words, nil for any other error: such a file
// can never be read first, so a write or edit over it says why instead of FS_NOT_OBSERVED.
func notInCharset(err error, verb, p string) error {
	fe, ok := errors.AsType[*fs.Error](err)
	prefix := `cannot read "` + p + `": not `
	if !ok || fe.Kind != fs.CodeNotText || !strings.HasPrefix(fe.Message, prefix) || !strings.HasSuffix(fe.Message, " does not round-trip)") {
		return nil
	}
	return fs.NewError(fs.CodeNotText, "cannot "+verb+fe.Message[len("cannot read"):], err)
}
