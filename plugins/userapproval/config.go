package userapproval

// Config is the configuration of the user-approval plugin. Unknown keys are errors under the
// composition's strict decoding.
type Config struct {
	// Policy is the default policy of sessions without an override: ask (default) or never.
	Policy Policy `yaml:"policy"`
}

// Defaults sets the default policy (the kernel calls it before decoding).
func (c *Config) Defaults() { c.Policy = PolicyAsk }

// Validate refuses a policy outside the vocabulary with ErrInvalidPolicy.
func (c Config) Validate() error {
	if !c.Policy.Valid() {
		return ErrInvalidPolicy
	}
	return nil
}
