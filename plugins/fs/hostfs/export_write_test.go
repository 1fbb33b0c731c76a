package hostfs

// LockCount exposes lockCount to the external tests of the mutation half.
func LockCount(p *Provider) int { return p.lockCount() }
