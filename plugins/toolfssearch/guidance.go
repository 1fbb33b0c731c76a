package toolfssearch

import "github.com/cordon-dev/cordon/plugins/tools"

// The guidance sections; their orders place them after tool-fs's (100-102).
const (
	globGuidanceText  = `Use the glob tool — not shell find — to discover files by path pattern. A pattern with no "/" matches file names at any depth, so "*.go" finds Go files in every directory. Results are files only, newest first, and leave out files that .gitignore excludes.`
	grepGuidanceText  = "Use the grep tool — not shell grep or rg — to search file contents. Use read on a matched file when you need surrounding context."
	globGuidanceOrder = 103
	grepGuidanceOrder = 104
)

func globGuidance() *tools.Guidance { return tools.StaticGuidance(globGuidanceOrder, globGuidanceText) }
func grepGuidance() *tools.Guidance { return tools.StaticGuidance(grepGuidanceOrder, grepGuidanceText) }
