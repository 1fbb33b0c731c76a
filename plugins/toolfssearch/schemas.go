package toolfssearch

import (
	"encoding/json"
	"strconv"

	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

func globDescription(max int) string {
	return "Find files whose paths match a glob pattern. Returns matching file paths, never directories, newest first; files that .gitignore or .ignore rules exclude are left out, and VCS metadata directories are never listed. Up to " +
		strconv.Itoa(max) + ` paths come back inline; a larger result says how many matched and where the complete list was saved. A pattern with no "/" matches file names at any depth.`
}

func grepDescription(max int) string {
	return "Search file contents with a regular expression (RE2 syntax, as Go's regexp: no lookaround or backreferences; (?i) for case-insensitive). Returns matching lines with line numbers, grouped by file, newest files first; files that .gitignore or .ignore rules exclude and binary files are skipped. The first " +
		strconv.Itoa(max) + " matching lines come back inline; a larger result says how many matched and where the complete list was saved. Use read on a matched file for surrounding context."
}

var globParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"pattern":{"type":"string","description":"Glob pattern to match file paths against (e.g. \"**/*.ts\", \"src/**/*.test.js\"). A pattern with no \"/\" matches file names at any depth, so \"*.ts\" searches the whole tree; include a \"/\" to anchor the pattern to the search directory."},` +
	`"path":{"type":"string","description":"The directory to search; defaults to the session's working directory. ` + filetool.PathRule + `"}` +
	`},"required":["pattern"]}`)

var grepParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"pattern":{"type":"string","description":"Regular expression to search for (RE2 syntax)."},` +
	`"path":{"type":"string","description":"The file or directory to search; defaults to the session's working directory. ` + filetool.PathRule + `"},` +
	`"include":{"type":"string","description":"One glob filter for which files to search (e.g. \"*.ts\", \"*.{js,jsx}\"). Not a list; negation is not supported."}` +
	`},"required":["pattern"]}`)
