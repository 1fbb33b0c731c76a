package toolfs

import "github.com/cordon-dev/cordon/plugins/tools"

// The guidance sections of the three tools (docs/tool-fs.md "Guidance"), from texts.json. They
// render only while their tool is visible; the write section recommends edit only while edit is
// visible.
var (
	readGuidanceText          = fsText.Text("read.guidance")
	writeGuidanceText         = fsText.Text("write.guidance")
	writeGuidanceWithEditText = fsText.Text("write.guidance.with_edit")
	editGuidanceText          = fsText.Text("edit.guidance")
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
		return writeGuidanceWithEditText
	}
	return writeGuidanceText
}

func editGuidance() *tools.Guidance { return tools.StaticGuidance(editGuidanceOrder, editGuidanceText) }
