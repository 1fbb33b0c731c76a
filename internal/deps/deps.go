//go:build tools

// Package deps pins module dependencies of the design card that no code imports yet:
// golang.org/x/image is for the attachment store's image normalization (a later issue).
package deps

import (
	_ "golang.org/x/image/webp"
)
