package toolfs

import (
	_ "embed"
	"encoding/json"
	"strconv"

	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// The tool descriptions sent to the model, from descriptions.json beside this file: the one place
// they are written (docs/tool-fs.md quotes them; tests and e2e read the file).
var (
	//go:embed descriptions.json
	descriptionsJSON []byte
	descriptions     = mustDescriptions(descriptionsJSON)
	readDescription  = descriptions["read"]
	writeDescription = descriptions["write"]
	editDescription  = descriptions["edit"]
)

// mustDescriptions decodes the embedded descriptions; a malformed file is a build mistake.
func mustDescriptions(b []byte) map[string]string {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		panic("toolfs: descriptions.json: " + err.Error())
	}
	return m
}

// readParameters is the read schema; limitDefault is interpolated into the limit description.
func readParameters(limitDefault int) json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"file_path":{"type":"string","description":"The file to read. ` + filetool.PathRule + `"},` +
		`"offset":{"type":"number","description":"1-based first line to return. Defaults to 1."},` +
		`"limit":{"type":"number","description":"Maximum number of lines to return. Defaults to ` + strconv.Itoa(limitDefault) + `."}` +
		`},"required":["file_path"]}`)
}

var writeParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"file_path":{"type":"string","description":"The file to write. ` + filetool.PathRule + `"},` +
	`"content":{"type":"string","description":"Full UTF-8 text content to write."}` +
	`},"required":["file_path","content"]}`)

var editParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"file_path":{"type":"string","description":"The file to edit. ` + filetool.PathRule + `"},` +
	`"old_string":{"type":"string","description":"Literal text to replace. Must match exactly."},` +
	`"new_string":{"type":"string","description":"Literal replacement text. Use an empty string to delete the match."},` +
	`"replace_all":{"type":"boolean","description":"Replace all matches. Defaults to false; when false, old_string must appear exactly once."}` +
	`},"required":["file_path","old_string","new_string"]}`)
