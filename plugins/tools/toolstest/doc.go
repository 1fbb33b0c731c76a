// Package toolstest holds test helpers for plugins built on the tools seam: fake approvers and a
// fake model catalog, sessions with a header, small plugin modules (tools, an approval or model
// service, a pre-execute decider), and Env, a kernel bound to a test with the tools runtime and
// the plugins under test, to run tool calls through the whole pipeline.
//
//	func TestWriteAsks(t *testing.T) {
//		approver := toolstest.Reject()
//		e := toolstest.New(t,
//			toolstest.WithTools(myTool),
//			toolstest.With(myplugin.Plugin, myplugin.Config{}),
//			toolstest.WithApprover(approver),
//			toolstest.WithHeader(tools.Header{Cwd: t.TempDir(), Model: "m"}),
//		)
//		res := e.Call("my_tool", map[string]any{"path": "a.txt"})
//		// res.Text() == `Error: the user rejected tool "my_tool"`
//		// approver.Requests()[0].CallID == "call-1"
//	}
//
// The fakes answer what they are told and record what they were asked: AllowOnce, Reject,
// Cancel, Unavailable, Failing and Answering build an *Approver; Catalog is a tools.ModelCatalog.
// New loads the tools runtime first, then each plugin of its options in order, and fails the test
// unless every one is active; the kernel is closed when the test ends. Calls get the ids "call-1",
// "call-2", ... and run in Env.Session ("s1") unless given another session or none.
//
// The package imports the kernel, its test helpers and the tools seam, never a plugin provider,
// so a plugin's tests compose the providers they want themselves (docs/testing.md).
package toolstest
