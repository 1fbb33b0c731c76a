package filetool

import (
	"errors"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// charsetGuidance is the line read and edit add to an `invalid UTF-8 text` refusal
// (docs/encodings.md): how to declare the charset of a file that is text in another one.
const charsetGuidance = "If it is text in another charset, declare it: an `encodings` entry {glob, charset} in the provider config, or `charset` in .editorconfig."

// WithCharsetGuidance adds charsetGuidance as the second line of an `invalid UTF-8 text`
// refusal (FS_NOT_TEXT, its first line unchanged, the original as its cause); any other error
// is returned as it is.
func WithCharsetGuidance(err error) error {
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
