// Package cookies keeps each virtual user's cookie jar, what JMeter's
// HTTP Cookie Manager holds for one thread: made when the user first
// needs it, for a thread group with a Cookie Manager in it or at plan
// level; emptied at each iteration when the manager clears each
// iteration or the group makes a new user each iteration; and holding
// the manager's own cookies (its "User-Defined Cookies"), which come back
// whenever it is emptied and whose ${} fields are evaluated at each
// request. The HTTP samplers send and store cookies through it, the
// WebSocket samplers send them on the upgrade, and scripts see it as
// sampler.getCookieManager(). A Parallel Controller's branches share
// their user's jar.
//
// It imports element and engine/httpx.
package cookies
