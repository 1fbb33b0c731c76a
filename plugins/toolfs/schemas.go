package toolfs

import (
	"encoding/json"
	"strconv"

	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

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
