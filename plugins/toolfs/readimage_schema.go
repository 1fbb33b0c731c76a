package toolfs

import (
	"encoding/json"

	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// readImageDescription is the read_image description: the contract's text with the sentence of
// the extension-less variant after the first sentence (docs/tool-fs.md "read_image").
const readImageDescription = "Read a PNG/JPEG/WebP/GIF file and return the image itself. " +
	"A path without a file extension is accepted; the format is detected from the file content, so normalized attachment paths can be passed directly without copying or renaming. " +
	"Harness validates and downscales large supported images before the next model request, so use this tool directly instead of installing image libraries or creating thumbnails merely to inspect an image. " +
	"Independent files may be read concurrently in small batches. Requires the current model to accept image input."

var readImageParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"file_path":{"type":"string","description":"The image file. ` + filetool.PathRule + `"}` +
	`},"required":["file_path"]}`)
