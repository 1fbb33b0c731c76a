package toolfs

import "github.com/cordon-dev/cordon/plugins/tools"

// The guidance sections of the three tools (docs/tool-fs.md "Guidance"). They render only while
// their tool is visible; the write section recommends edit only while edit is visible.
const (
	readGuidanceText  = "Use the read tool — not shell commands like cat — to inspect text files. Results include line numbers. Use offset and limit to continue reading large files."
	writeGuidanceBase = "Use the write tool to create files or completely replace file contents. Existing files are overwritten, so read an existing file first (the default fs-observation-policy requires it)"
	writeGuidanceEdit = " and prefer edit for targeted changes"
	editGuidanceText  = "Use the edit tool for targeted changes to existing UTF-8 text files. It replaces literal old_string with new_string; by default old_string must appear exactly once. If old_string appears multiple times, provide a more specific old_string or set replace_all to true. Read the file first (the default fs-observation-policy requires it), unless you just created or edited it in this session."
)

// The section orders of the file tools' guidance (tools use 100-199).
const (
	readGuidanceOrder  = 100
	writeGuidanceOrder = 101
	editGuidanceOrder  = 102
)

func readGuidance() *tools.Guidance { return tools.StaticGuidance(readGuidanceOrder, readGuidanceText) }

func writeGuidance() *tools.Guidance {
	return &tools.Guidance{Order: writeGuidanceOrder, Text: writeGuidanceFor}
}

// writeGuidanceFor renders the write section for the visible tool set.
func writeGuidanceFor(visible func(string) bool) string {
	if visible != nil && visible("edit") {
		return writeGuidanceBase + writeGuidanceEdit + "."
	}
	return writeGuidanceBase + "."
}

func editGuidance() *tools.Guidance { return tools.StaticGuidance(editGuidanceOrder, editGuidanceText) }
