package filetool

import (
	"errors"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// The remedies appended at the model boundary of write and edit (space, EM DASH, space).
const (
	staleRemedy       = " — re-read the file, then retry"
	notObservedSuffix = ": file has not been read — read the file, then retry"
	// notRegularGuidance is the line after an FS_NOT_OBSERVED over a directory, a FIFO or a
	// device, which read refuses: the remedy alone would send the model back to read.
	notRegularGuidance = "It is not a regular file (a directory, a FIFO or a device): read cannot show it and edit cannot change it."
)

// notObserved is the text every FS_NOT_OBSERVED becomes.
func notObserved(displayPath string) string {
	return `cannot modify "` + displayPath + `"` + notObservedSuffix
}

// Remediate rewrites a failure of the mutation step of write or edit for the model:
//
//   - FS_STALE_VERSION keeps the provider's reason and gains " — re-read the file, then retry",
//     then, on the lines after, the fs.Guidance its cause carries (what changed since the read);
//   - every FS_NOT_OBSERVED, whichever layer raised it, becomes exactly
//     `cannot modify "<p>": file has not been read — read the file, then retry` (docs/tool-fs.md
//     "Errors of `write` and `edit`");
//   - `invalid UTF-8 text` gains the charset guidance line (WithCharsetGuidance);
//   - anything else is returned unchanged (the same error value).
//
// The rewritten error keeps the code and has the original error as its cause.
func Remediate(err error, displayPath string) error {
	var fe *fs.Error
	if !errors.As(err, &fe) {
		return err
	}
	switch fe.Kind {
	case fs.CodeStaleVersion:
		msg := fe.Message + staleRemedy
		if g, ok := errors.AsType[*fs.Guidance](err); ok {
			msg += "\n" + g.Text
		}
		return fs.NewError(fs.CodeStaleVersion, msg, err)
	case fs.CodeNotObserved:
		return fs.NewError(fs.CodeNotObserved, notObserved(displayPath), err)
	case fs.CodeNotText:
		return WithCharsetGuidance(err)
	}
	return err
}
