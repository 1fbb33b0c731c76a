package toolfssearch

import (
	_ "embed"
	"encoding/json"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// The model-facing texts of glob and grep, from texts.json beside this file: the one place they
// are written (docs/texts.md; docs/search.md quotes them). The tests and the e2e scripts read and
// render the same file.
var (
	//go:embed texts.json
	textsJSON  []byte
	searchText = texts.MustParse("plugins/toolfssearch/texts.json", textsJSON)

	globDescriptionText = searchText.Template("glob.description", "max")
	grepDescriptionText = searchText.Template("grep.description", "max")
	foundMany           = searchText.Template("grep.found.many", "n")
	foundCapped         = searchText.Template("grep.found.capped", "shown", "total")
)

func globDescription(max int) string { return globDescriptionText.RenderInts(max) }

func grepDescription(max int) string { return grepDescriptionText.RenderInts(max) }

var globParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"pattern":{"type":"string","description":"Glob pattern to match file paths against (e.g. \"**/*.ts\", \"src/**/*.test.js\"). A pattern with no \"/\" matches file names at any depth, so \"*.ts\" searches the whole tree; include a \"/\" to anchor the pattern to the search directory."},` +
	`"path":{"type":"string","description":"The directory to search; defaults to the session's working directory. ` + filetool.PathRule + `"}` +
	`},"required":["pattern"]}`)

var grepParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"pattern":{"type":"string","description":"Regular expression to search for (RE2 syntax)."},` +
	`"path":{"type":"string","description":"The file or directory to search; defaults to the session's working directory. ` + filetool.PathRule + `"},` +
	`"include":{"type":"string","description":"One glob filter for which files to search (e.g. \"*.ts\", \"*.{js,jsx}\"). Not a list; negation is not supported."}` +
	`},"required":["pattern"]}`)
