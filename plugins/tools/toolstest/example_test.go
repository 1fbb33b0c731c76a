package toolstest_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// The modules and the fake approver compose into any kernel, here one made by hand: a tool that
// every call must ask for, and a user who rejects.
func ExampleApprover() {
	k := kernel.New()
	defer func() { _ = k.Close(context.Background()) }()
	approver := toolstest.Reject()
	for _, m := range []kernel.Module{
		tools.Plugin,
		toolstest.Tools("my-tools", cwdTool),
		toolstest.Decide("ask-always", func(*tools.Exec) tools.Decision { return tools.Decision{Kind: tools.Ask} }),
		toolstest.ProvideApproval("my-approval", approver),
	} {
		if _, err := k.Root().Load(m, nil); err != nil {
			fmt.Println(err)
			return
		}
	}
	s := toolstest.Session("agent-1", tools.Header{Cwd: "/work"})
	res := tools.Service.Must(k.Root()).Execute(context.Background(), tools.Call{CallID: "c1", Name: "where", Args: json.RawMessage(`{}`), Session: s})
	fmt.Println(res.Text())
	fmt.Println(len(approver.Requests()), approver.Requests()[0].Session.ID())
	// Output:
	// Error: the user rejected tool "where"
	// 1 agent-1
}
