package app

import "runtime/debug"

// modulePath is the module whose version serve reports.
const modulePath = "github.com/cordon-dev/cordon"

// stampedVersion is the version a release build stamps with
// -ldflags "-X github.com/cordon-dev/cordon/cmd/harness/app.stampedVersion=v1.2.3" (scripts/release);
// when set it wins over the build information.
var stampedVersion string

// buildVersion is the stamped version, else this module's version as the build recorded it: the version of the main module
// (a tagged `go install ...@v1.2.3`, or the pseudo-version a build in a git checkout stamps), or of
// the cordon dependency of a custom host; "dev" when the build recorded none.
func buildVersion() string {
	if stampedVersion != "" {
		return stampedVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
	for _, m := range mods {
		if m.Path != modulePath {
			continue
		}
		if m.Replace != nil && m.Replace.Version != "" {
			return m.Replace.Version
		}
		if m.Version != "" && m.Version != "(devel)" {
			return m.Version
		}
	}
	return "dev"
}
