// Package filetool is what the file tools of several plugins share (tool-fs's read, write, edit
// and read_image, tool-apply-patch's apply_patch, tool-notebook's notebook_edit): the session-cwd
// resolve base, the sandbox hook and its escalation (docs/tool-fs.md "Sandbox escalation"), the
// steps before an edit (StartEdit), the model-facing remedies of a mutation's failure
// (docs/tool-fs.md "Errors of `write` and `edit`"), read_image's admission gates (also for the
// images of a notebook's outputs, docs/notebooks.md), which decide whether an unread file could
// still be observed, and the diff presentation meta.
//
// It is a library (docs/layering.md): it reaches the fs, tools, sandbox and attachments seams and
// no plugin.
package filetool
