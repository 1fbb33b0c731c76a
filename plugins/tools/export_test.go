package tools

// DecodeParsedArgs and ArgName are decodeArgs and argName, for the differential fuzz test of
// DecodeArgs.
var (
	DecodeParsedArgs = decodeArgs
	ArgName          = argName
)
