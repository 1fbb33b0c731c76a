package toolstest

import "encoding/json"

// ReadArgs and EditArgs have the shapes of tool-fs's read and edit arguments, for benchmarks and
// fuzz targets of the argument path that need a tool's In type without importing the tool.
type ReadArgs struct {
	FilePath string   `json:"file_path"`
	Offset   *float64 `json:"offset"`
	Limit    *float64 `json:"limit"`
}

// EditArgs: see ReadArgs.
type EditArgs struct {
	FilePath      string          `json:"file_path"`
	OldString     string          `json:"old_string"`
	NewString     string          `json:"new_string"`
	ReplaceAll    *bool           `json:"replace_all"`
	Permissions   json.RawMessage `json:"sandbox_permissions"`
	Justification json.RawMessage `json:"justification"`
}
