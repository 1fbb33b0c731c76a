// Package statedir names the user's state directory, where Cordon keeps what outlives a process
// (attachments, spilled tool results): $XDG_STATE_HOME when it is absolute, else ~/.local/state
// ($HOME, else the account's home directory).
package statedir

import (
	"fmt"
	"os"
	"path/filepath"
)

// StateHome returns the user's state directory; lookup reads the environment (os.LookupEnv).
func StateHome(lookup func(string) (string, bool)) (string, error) {
	if v, ok := lookup("XDG_STATE_HOME"); ok && filepath.IsAbs(v) {
		return v, nil
	}
	home, err := Home(lookup)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state"), nil
}

// Home returns the user's home directory: $HOME when it is set and not empty, else the account's.
func Home(lookup func(string) (string, bool)) (string, error) {
	if v, ok := lookup("HOME"); ok && v != "" {
		return v, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot determine the home directory: %w", err)
	}
	return h, nil
}
