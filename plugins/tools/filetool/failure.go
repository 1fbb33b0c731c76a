package filetool

import (
	"context"
	"errors"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// MutationFailure is what the model sees of a failure of write or edit (verb) on target: a
// sandbox denial becomes its marker text (MapError); an FS_NOT_OBSERVED over a file that no tool
// can read becomes FS_NOT_TEXT (unreadable), since "read the file, then retry" could never
// succeed, and over a directory, a FIFO or a device it keeps its first line and says on the next
// one that such a file is neither read nor edited; anything else is remediated (Remediate). verb
// (fs.VerbWrite, fs.VerbEdit) is the word of the refusals.
//
//	out, err := env.FS.WriteText(sandbox.WithPolicy(ctx, policy), target, text, intent)
//	if err != nil {
//		return Value{}, env.MutationFailure(ctx, fs.VerbWrite, target, policy, exec, err)
//	}
func (e *Env) MutationFailure(ctx context.Context, verb string, target fs.Target, policy *sandbox.CallPolicy, exec *tools.Exec, err error) error {
	err = e.Sandbox.MapError(ctx, err, target.DisplayPath, policy)
	if fs.HasCode(err, fs.CodeNotObserved) {
		nt, notRegular := e.unreadable(ctx, verb, target, exec)
		if nt != nil {
			return WithCharsetGuidance(nt)
		}
		if notRegular {
			return fs.NewError(fs.CodeNotObserved, notObserved(target.DisplayPath)+"\n"+notRegularGuidance, err)
		}
	}
	return Remediate(err, target.DisplayPath)
}

// unreadable returns FS_NOT_TEXT `cannot <verb> "<p>": binary file` (or `invalid UTF-8 text`, or
// `not <charset> text (byte <n> does not round-trip)`: notInCharset) when read refuses target for that reason and read_image could not read it either (see
// imageObservable); nil otherwise (text, missing, any other failure), with notRegular when read
// refuses target as not a regular file. The file is streamed as
// read would stream it, up to its first failure: this costs no more than the read the model would
// otherwise be sent to make, and only on this failure path.
func (e *Env) unreadable(ctx context.Context, verb string, target fs.Target, exec *tools.Exec) (_ error, notRegular bool) {
	seq, err := e.FS.StreamText(ctx, target)
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
		return nt, false
	}
	if errors.Is(err, fs.ReadNotRegular(p)) {
		return nil, true
	}
	binary, invalid := errors.Is(err, fs.ReadBinary(p)), errors.Is(err, fs.ReadInvalidUTF8(p))
	if !binary && !invalid || e.imageObservable(ctx, target, exec) {
		return nil, false
	}
	switch {
	case binary && verb == fs.VerbEdit:
		return fs.NewError(fs.CodeNotText, fs.EditBinary(p).Message, err), false
	case binary:
		return fs.WriteBinary(p, err), false
	case verb == fs.VerbEdit:
		return fs.NewError(fs.CodeNotText, fs.EditInvalidUTF8(p).Message, err), false
	}
	return fs.WriteInvalidUTF8(p, err), false
}

// imageObservable reports whether read_image would accept target in this call, and so Observe
// it: its gates (AdmitImage) admit the display path and, without an extension, the file's
// signature passes SniffImage within the read bound. Whether its bytes decode is left to
// read_image, as is the size of a file that declares its type: such a file keeps FS_NOT_OBSERVED.
func (e *Env) imageObservable(ctx context.Context, target fs.Target, exec *tools.Exec) bool {
	adm, err := e.AdmitImage(ctx, exec, target.DisplayPath)
	if err != nil {
		return false
	}
	if adm.Declared != "" {
		return true
	}
	data, err := e.FS.ReadBytes(ctx, target, adm.ReadCap())
	if err != nil {
		return false
	}
	_, err = SniffImage(data, adm.Limits, target.DisplayPath)
	return err == nil
}
