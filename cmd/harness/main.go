// Command harness is the Cordon host: it composes the stock plugins from YAML and serves their tools
// over MCP on stdio (serve) or as JSON lines (run). See package app for the commands and flags.
package main

import (
	"os"

	"github.com/cordon-dev/cordon/cmd/harness/app"
)

func main() { os.Exit(app.Main(os.Args[1:])) }
