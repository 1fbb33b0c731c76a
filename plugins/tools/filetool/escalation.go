package filetool

import (
	"context"
	"encoding/json"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// errEscalationUnavailable refuses sandbox_permissions under a filesystem that never confines
// (a plain error, no code; docs/tool-fs.md "Sandbox escalation").
var errEscalationUnavailable = sandbox.ErrEscalationNotAvailable

// Escalation are the two escalation arguments of write and edit, as sent: a key that is
// present (JSON null included, as a JavaScript `!== undefined` sees it) has a non-empty raw value.
type Escalation struct {
	Permissions   json.RawMessage `json:"sandbox_permissions"`
	Justification json.RawMessage `json:"justification"`
}

// requested reports whether both escalation arguments are present.
func (e Escalation) requested() bool { return len(e.Permissions) > 0 && len(e.Justification) > 0 }

// mode returns the requested mode: the sandbox_permissions string, or its raw JSON text when it
// is not a string (only reachable where the schema does not advertise the field; such a value
// is never strictly wider, so it is refused without asking anyone).
func (e Escalation) mode() sandbox.Mode {
	var s string
	if json.Unmarshal(e.Permissions, &s) != nil {
		return sandbox.Mode(e.Permissions)
	}
	return sandbox.Mode(s)
}

// justification returns the justification as sent (not trimmed); "" when it is not a string.
func (e Escalation) justification() string {
	var s string
	_ = json.Unmarshal(e.Justification, &s)
	return s
}

// checkEscalationArgs validates the pairing of the escalation arguments (docs/tool-fs.md "Sandbox
// escalation", in order, through sandbox.ValidateEscalationArgs): sandbox_permissions needs a
// justification, a justification needs sandbox_permissions, and the justification must not be
// blank. It runs for every write and edit, sandboxed or not (the open parameter root lets
// unadvertised fields through). A justification that is not a string is refused as blank.
func checkEscalationArgs(e Escalation) (Escalation, error) {
	var permissions, justification *string
	if len(e.Permissions) > 0 {
		p := string(e.mode())
		permissions = &p
	}
	if len(e.Justification) > 0 {
		j := e.justification()
		justification = &j
	}
	if err := sandbox.ValidateEscalationArgs(permissions, justification); err != nil {
		return Escalation{}, err
	}
	return e, nil
}

// Action is what a write or edit would do, for the approval prompt of its escalation:
// the file_path as sent and the texts it would write.
type Action struct {
	FilePath string
	Previews []tools.ApprovalPreview
	// Files are every file of a call that changes several (apply_patch), their paths as sent:
	// describe resolves them and marks the protected and outside ones.
	Files []tools.ApprovalFile
}

// approvalAsker is the sandbox's route to the composed approval service for one escalated call:
// req is the call's request (session, tool, call id, and the details of what it would do), which
// each ask completes with the question's reason, modes and justification.
type approvalAsker struct {
	approver tools.Approver
	req      tools.ApprovalRequest
}

// AskEscalation implements sandbox.Asker.
func (a *approvalAsker) AskEscalation(ctx context.Context, q sandbox.EscalationQuestion) (string, error) {
	req, details := a.req, *a.req.Details
	details.Mode, details.CurrentMode, details.Justification = string(q.Mode), string(q.Current), q.Justification
	req.Reason, req.Details = q.Reason, &details
	outcome, err := a.approver.Request(ctx, req)
	return string(outcome), err
}

// sandboxSession is the call's session for the sandbox seam: an untyped nil without one.
func sandboxSession(s *tools.Session) sandbox.Session {
	if s == nil {
		return nil
	}
	return s
}

// describe returns the approval details of action under the standing policy: the path resolved
// as the call will resolve it (absolute, and where it leads when a symlink takes it elsewhere;
// the path as sent when it does not resolve) and the previews.
func (c *confiningSandbox) describe(ctx context.Context, action Action, standing *sandbox.CallPolicy, exec *tools.Exec) tools.ApprovalDetails {
	d := tools.ApprovalDetails{Path: action.FilePath, Previews: action.Previews}
	for _, f := range action.Files {
		d.Files = append(d.Files, c.describeFile(ctx, f, standing, exec))
	}
	if action.FilePath == "" {
		return d
	}
	target, err := c.fs.Resolve(ctx, action.FilePath, fs.ResolveOptions{Cwd: MutationBase(standing, exec, action.FilePath)})
	if err != nil {
		return d
	}
	d.Path = target.DisplayPath
	if p := c.fs.ProcessPath(target); p != d.Path {
		d.ResolvedPath = p
	}
	return d
}

// fileMarks are the prompt's marks of the sandbox's path classes (the worst first).
var fileMarks = map[sandbox.PathClass]string{sandbox.PathProtected: tools.MarkProtected, sandbox.PathOutside: tools.MarkOutside,
	sandbox.PathUnverified: tools.MarkUnverified}

// describeFile resolves the path (and a move's destination) of one file as the call will, and marks
// it by where it lies under the standing policy's writable roots (the worse of the two for a move;
// unverified when a path does not resolve or the filesystem cannot say).
func (c *confiningSandbox) describeFile(ctx context.Context, f tools.ApprovalFile, standing *sandbox.CallPolicy, exec *tools.Exec) tools.ApprovalFile {
	classifier, _ := c.fs.(sandbox.PathClassifier)
	worst := sandbox.PathInside
	resolve := func(p string) (string, string) {
		t, err := c.fs.Resolve(ctx, p, fs.ResolveOptions{Cwd: MutationBase(standing, exec, p)})
		class := sandbox.PathUnverified
		if err == nil && classifier != nil {
			class = classifier.ClassifyPath(ctx, t, *standing)
		}
		if class > worst {
			worst = class
		}
		if err != nil {
			return p, ""
		}
		if real := c.fs.ProcessPath(t); real != t.DisplayPath {
			return t.DisplayPath, real
		}
		return t.DisplayPath, ""
	}
	f.Path, f.ResolvedPath = resolve(f.Path)
	if f.MoveTo != "" {
		f.MoveTo, _ = resolve(f.MoveTo)
	}
	f.Mark = fileMarks[worst]
	return f
}
