package app

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
)

//go:embed profiles/*.yaml
var profileFS embed.FS

// DefaultProfile is the profile used without --profile and --config.
const DefaultProfile = "default"

// embeddedProfiles returns the compositions compiled into the binary, by name (file name without
// .yaml).
func embeddedProfiles() map[string][]byte {
	out := map[string][]byte{}
	files, _ := profileFS.ReadDir("profiles")
	for _, f := range files {
		data, err := profileFS.ReadFile(path.Join("profiles", f.Name()))
		if err != nil {
			continue
		}
		out[strings.TrimSuffix(f.Name(), ".yaml")] = data
	}
	return out
}

// Profile returns the embedded composition of the stock harness with the given name.
func Profile(name string) ([]byte, error) {
	data, ok := embeddedProfiles()[name]
	if !ok {
		return nil, fmt.Errorf("unknown profile %q (known: %s)", name, strings.Join(profileNames(embeddedProfiles()), ", "))
	}
	return data, nil
}

func profileNames(m map[string][]byte) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
