package tools

// ValueBlind is the kernel.Tag of a listener on tools/execute, tools/execute-change,
// tools/post-execute or tools/result that never reads a Result's Value (it may read and replace
// the content, block, or pass the result on):
//
//	tools.PostExecute.On(kc, fn, kernel.Tag(tools.ValueBlind))
//
// A call whose host drops the value is built for its content alone (Exec.ContentOnly) only while
// every live listener on those keys carries the tag; any other listener sees every value whole.
const ValueBlind = "tools/value-blind"

// valueUnread reports whether no live listener that may read a result's value listens on the keys
// that see one (each carries ValueBlind).
func (r *Runtime) valueUnread() bool {
	return ExecuteStep.ListenersExcept(r.kc, ValueBlind) == 0 && ChangeStep.ListenersExcept(r.kc, ValueBlind) == 0 &&
		PostExecute.ListenersExcept(r.kc, ValueBlind) == 0 && ResultEvent.ListenersExcept(r.kc, ValueBlind) == 0
}
