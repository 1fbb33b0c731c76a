// Command harness-audit is a custom Cordon host: the stock harness plus the third-party "audit-log"
// plugin, which its embedded profiles load after the stock plugins.
package main

import (
	"os"

	"github.com/cordon-dev/cordon/cmd/harness/app"
	"github.com/cordon-dev/cordon/examples/auditlog"
)

// snippet: README.md custom-host
// snippet: docs/host.md custom-host
func main() {
	os.Exit(app.Main(os.Args[1:],
		app.WithName("harness-audit"),
		app.WithModules(auditlog.Module),
		app.WithEntries(app.MustEntry(auditlog.ID, nil))))
}

// end snippet
