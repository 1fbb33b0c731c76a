package toolfssearch

import "github.com/cordon-dev/cordon/plugins/tools"

// The guidance sections (texts.json); their orders place them after tool-fs's (100-102).
var (
	globGuidanceText = searchText.Text("glob.guidance")
	grepGuidanceText = searchText.Text("grep.guidance")
)

const (
	globGuidanceOrder = 103
	grepGuidanceOrder = 104
)

func globGuidance() *tools.Guidance { return tools.StaticGuidance(globGuidanceOrder, globGuidanceText) }
func grepGuidance() *tools.Guidance { return tools.StaticGuidance(grepGuidanceOrder, grepGuidanceText) }
