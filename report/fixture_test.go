package report

// fixture returns hand-made samples covering what the writers must get
// right: quoting, a missing URL, a failure message with a line end,
// redirect sub-results, a transaction sample, a non-HTTP error and sample
// variables (user, token).
func fixture() []*Sample {
	vars := func(v ...string) []string { return v }
	return []*Sample{
		{
			Start: t0, Elapsed: ms(120), Latency: ms(80), Connect: ms(15),
			Label: "home", Code: "200", Message: "OK", ThreadName: "Users 1-1",
			DataType: "text", Success: true, Bytes: 5120, SentBytes: 310,
			GrpThreads: 2, AllThreads: 3, URL: "http://127.0.0.1:8080/",
			Vars: vars("alice", "t1"),
		},
		{
			Start: t0.Add(ms(5)), Elapsed: ms(2400), Latency: ms(2390), Connect: ms(0),
			Label: `search "q", page 1`, Code: "500", Message: "Internal Server Error",
			ThreadName: "Users 1-2", DataType: "text", Success: false,
			FailureMessage: "Test failed: text expected to contain /ok/\nline 2",
			Bytes:          230, SentBytes: 290, GrpThreads: 2, AllThreads: 3,
			URL:        "http://127.0.0.1:8080/search?q=a,b&x=\"y\"",
			Vars:       vars("bob", "a,b"),
			Assertions: []AssertionResult{{Name: "Body has ok", Failure: true, Message: "Test failed: text expected to contain /ok/\nline 2"}},
		},
		{
			Start: t0.Add(ms(130)), Elapsed: ms(45), Latency: ms(20), Connect: ms(3),
			Label: "login", Code: "200", Message: "OK", ThreadName: "Users 1-1",
			DataType: "text", Success: true, Bytes: 900, SentBytes: 400,
			GrpThreads: 2, AllThreads: 3, URL: "http://127.0.0.1:8080/home",
			Vars:       vars("alice", "t2"),
			Assertions: []AssertionResult{{Name: "Status 200"}},
			Sub: []*Sample{
				{
					Start: t0.Add(ms(130)), Elapsed: ms(20), Latency: ms(20), Connect: ms(3),
					Label: "login-0", Code: "302", Message: "Found", ThreadName: "Users 1-1",
					Success: true, Bytes: 150, SentBytes: 200, GrpThreads: 2, AllThreads: 3,
					URL: "http://127.0.0.1:8080/login",
				},
				{
					Start: t0.Add(ms(151)), Elapsed: ms(24), Latency: ms(10),
					Label: "login-1", Code: "200", Message: "OK", ThreadName: "Users 1-1",
					DataType: "text", Success: true, Bytes: 750, SentBytes: 200,
					GrpThreads: 2, AllThreads: 3, URL: "http://127.0.0.1:8080/home",
				},
			},
		},
		{
			Start: t0.Add(ms(130)), Elapsed: ms(2460), Latency: ms(2410), Idle: ms(15),
			Label: "Checkout, step 1", Message: "Number of samples in transaction : 2, number of failing samples : 1",
			ThreadName: "Users 1-1", Success: false, Bytes: 1130, SentBytes: 690,
			GrpThreads: 2, AllThreads: 3, Transaction: true, Vars: vars("alice", "t2"),
		},
		{
			Start: t0.Add(ms(2600)), Elapsed: ms(1), Latency: ms(0), Connect: ms(1),
			Label: "home", Code: "Non HTTP response code: java.net.ConnectException",
			Message: "Non HTTP response message: Connection refused", ThreadName: "Users 1-2",
			DataType: "text", Success: false, Bytes: 1544, SentBytes: 0,
			GrpThreads: 1, AllThreads: 1, URL: "http://127.0.0.1:8080/",
			Vars: vars("bob", ""),
		},
	}
}

var fixtureVars = []string{"user", "token"}
