// Command harness-append is a custom Cordon host: the stock harness plus the third-party
// "append-file" plugin, which its embedded profiles load after the stock plugins.
package main

import (
	"os"

	"github.com/cordon-dev/cordon/cmd/harness/app"
	"github.com/cordon-dev/cordon/examples/appendfile"
)

// snippet: docs/filetool.md appendfile-host
func main() {
	os.Exit(app.Main(os.Args[1:], app.WithName("harness-append"), app.WithModules(appendfile.Module),
		app.WithEntries(app.MustEntry(appendfile.ID, nil))))
}

// end snippet
