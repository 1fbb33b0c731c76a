package z

func NewNop() {}

func NewNopCore() {}

var _ = NewNop
