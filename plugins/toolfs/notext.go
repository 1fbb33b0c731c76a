package toolfs

import (
	"context"
	"errors"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// mutationFailure is what the model sees of a failure of write or edit (verb) on target: a
// sandbox denial becomes its marker text (mapError); an FS_NOT_OBSERVED over a file that no tool
// can read becomes FS_NOT_TEXT (unreadable), since "read the file, then retry" could never
// succeed; anything else is remediated.
func (s *suite) mutationFailure(ctx context.Context, verb string, target fs.Target, policy *sandbox.CallPolicy, exec *tools.Exec, err error) error {
	err = s.sandbox.mapError(err, policy)
	if fs.HasCode(err, fs.CodeNotObserved) {
		if nt := s.unreadable(ctx, verb, target, exec); nt != nil {
			return withCharsetGuidance(nt)
		}
	}
	return remediate(err, target.DisplayPath)
}

// unreadable returns FS_NOT_TEXT `cannot <verb> "<p>": binary file` (or `invalid UTF-8 text`, or
// `not <charset> text (byte <n> does not round-trip)`: notInCharset) when read refuses target for that reason and read_image could not read it either (see
// imageObservable); nil otherwise (text, missing, any other failure). The file is streamed as
// read would stream it, up to its first failure: this costs no more than the read the model would
// otherwise be sent to make, and only on this failure path.
func (s *suite) unreadable(ctx context.Context, verb string, target fs.Target, exec *tools.Exec) error {
	seq, err := s.fs.StreamText(ctx, target)
	if err == nil {
		for _, chunkErr := range seq {
			if chunkErr != nil {
				err = chunkErr
				break
			}
		}
	}
	p := target.DisplayPath
	if nt := notInCharset(err, verb, p); nt != nil {
		return nt
	}
	binary, invalid := errors.Is(err, fs.ReadBinary(p)), errors.Is(err, fs.ReadInvalidUTF8(p))
	if !binary && !invalid || s.imageObservable(ctx, target, exec) {
		return nil
	}
	switch {
	case binary && verb == fs.VerbEdit:
		return fs.NewError(fs.CodeNotText, fs.EditBinary(p).Message, err)
	case binary:
		return fs.WriteBinary(p, err)
	case verb == fs.VerbEdit:
		return fs.NewError(fs.CodeNotText, fs.EditInvalidUTF8(p).Message, err)
	}
	return fs.WriteInvalidUTF8(p, err)
}

// imageObservable reports whether read_image would accept target in this call, and so observe
// it: its gates (admitImage) admit the display path and, without an extension, the file's
// signature passes sniffImage within the read bound. Whether its bytes decode is left to
// read_image, as is the size of a file that declares its type: such a file keeps FS_NOT_OBSERVED.
func (s *suite) imageObservable(ctx context.Context, target fs.Target, exec *tools.Exec) bool {
	adm, err := s.admitImage(ctx, exec, target.DisplayPath)
	if err != nil {
		return false
	}
	if adm.declared != "" {
		return true
	}
	data, err := s.fs.ReadBytes(ctx, target, adm.readCap())
	if err != nil {
		return false
	}
	_, err = sniffImage(data, adm.limits, target.DisplayPath)
	return err == nil
}
