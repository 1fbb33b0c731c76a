package toolfs

import (
	"encoding/json"

	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// readImageDescription is the read_image description: the contract's text with the sentence of
// the extension-less variant after the first sentence (docs/tool-fs.md "read_image").
var readImageDescription = fsText.Text("read_image.description")

var readImageParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"file_path":{"type":"string","description":"The image file. ` + filetool.PathRule + `"}` +
	`},"required":["file_path"]}`)
