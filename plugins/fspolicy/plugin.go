package fspolicy

import "github.com/cordon-dev/cordon/kernel"

// ID is the catalog name of the plugin.
const ID = "fs-observation-policy"

// Config is the (empty) configuration: any key is an error under strict
// decoding.
type Config struct{}

// Plugin is the fs-observation-policy module. It injects nothing, provides no
// service, does no I/O and mounts immediately (see Install).
var Plugin = kernel.Define[Config](ID, func(kc *kernel.Context, _ Config) error {
	_, err := Install(kc)
	return err
})
