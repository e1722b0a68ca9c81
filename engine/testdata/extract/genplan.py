from xml.sax.saxutils import escape as esc
def sp(n,v): return f'<stringProp name="{n}">{esc(v)}</stringProp>'
def bp(n,v): return f'<boolProp name="{n}">{"true" if v else "false"}</boolProp>'
def ip(n,v): return f'<intProp name="{n}">{v}</intProp>'
def el(tag, cls, name, props, gui=None, children=None):
    gui = gui or cls+"Gui"
    body = "\n".join(props)
    kids = "<hashTree/>" if not children else "<hashTree>\n"+"\n".join(children)+"\n</hashTree>"
    return f'<{tag} guiclass="{gui}" testclass="{cls}" testname="{esc(name)}" enabled="true">\n{body}\n</{tag}>\n{kids}'
def http(name, method, path, args=(), children=None, encode=False):
    a = "".join(f'<elementProp name="{esc(k)}" elementType="HTTPArgument">{bp("HTTPArgument.always_encode",encode)}{sp("Argument.value",v)}{sp("Argument.metadata","=")}{bp("HTTPArgument.use_equals",True)}{sp("Argument.name",k)}</elementProp>' for k,v in args)
    props = [f'<elementProp name="HTTPsampler.Arguments" elementType="Arguments" guiclass="HTTPArgumentsPanel" testclass="Arguments" enabled="true"><collectionProp name="Arguments.arguments">{a}</collectionProp></elementProp>',
      sp("HTTPSampler.domain","${__P(host,127.0.0.1)}"), sp("HTTPSampler.port","${__P(port,8080)}"), sp("HTTPSampler.protocol","http"),
      sp("HTTPSampler.path",path), sp("HTTPSampler.method",method), bp("HTTPSampler.follow_redirects",False), bp("HTTPSampler.auto_redirects",False),
      bp("HTTPSampler.use_keepalive",True), bp("HTTPSampler.DO_MULTIPART_POST",False)]
    return el("HTTPSamplerProxy","HTTPSamplerProxy",name,props,"HttpTestSampleGui",children)
def regex(name, ref, regex, tmpl, match, default="", field="false"):
    return el("RegexExtractor","RegexExtractor",name,[sp("RegexExtractor.useHeaders",field),sp("RegexExtractor.refname",ref),sp("RegexExtractor.regex",regex),sp("RegexExtractor.template",tmpl),sp("RegexExtractor.default",default),sp("RegexExtractor.match_number",match)])
def rassert(name, field, ttype, strings, assume=False):
    def jh(t):
        h = 0
        for ch in t: h = (31*h + ord(ch)) & 0xFFFFFFFF
        return h - (1 << 32) if h >= 1 << 31 else h
    ss = "".join(sp(str(jh(s)), s) for s in strings)
    return el("ResponseAssertion","ResponseAssertion",name,[f'<collectionProp name="Asserion.test_strings">{ss}</collectionProp>',sp("Assertion.test_field",field),bp("Assertion.assume_success",assume),ip("Assertion.test_type",ttype)],"AssertionGui")
def css(name, ref, expr, attr, match, default=""):
    return el("HtmlExtractor","HtmlExtractor",name,[sp("HtmlExtractor.refname",ref),sp("HtmlExtractor.expr",expr),sp("HtmlExtractor.attribute",attr),sp("HtmlExtractor.default",default),sp("HtmlExtractor.match_number",match),sp("HtmlExtractor.extractor_impl","")])
def xpathA(name, xp, negate=False, tolerant=False):
    return el("XPathAssertion","XPathAssertion",name,[bp("XPath.negate",negate),sp("XPath.xpath",xp),bp("XPath.validate",False),bp("XPath.whitespace",False),bp("XPath.tolerant",tolerant),bp("XPath.namespace",False)])
def xpathE(name, ref, xp, default="", tolerant=False):
    return el("XPathExtractor","XPathExtractor",name,[sp("XPathExtractor.default",default),sp("XPathExtractor.refname",ref),sp("XPathExtractor.xpathQuery",xp),bp("XPathExtractor.validate",False),bp("XPathExtractor.tolerant",tolerant),bp("XPathExtractor.namespace",False)])
def size(name, field, size_, op):
    return el("SizeAssertion","SizeAssertion",name,[sp("Assertion.test_field",field),sp("SizeAssertion.size",size_),ip("SizeAssertion.operator",op)])
def header(name, k, v):
    return el("HeaderManager","HeaderManager",name,[f'<collectionProp name="HeaderManager.headers"><elementProp name="" elementType="Header">{sp("Header.name",k)}{sp("Header.value",v)}</elementProp></collectionProp>'],"HeaderPanel")

D,CODE,MSG,HDR,URL,REQH = "Assertion.response_data","Assertion.response_code","Assertion.response_message","Assertion.response_headers","Assertion.sample_label","Assertion.request_headers"
samplers = [
 http("Login","POST","/login",[("user","demo"),("pass","secret")],[
   regex("token","token",'"token":"([^"]+)"',"$1$","1","NO_TOKEN"),
   regex("cookie header","sess","Set-Cookie: session=([^;]+);","$1$","1","NO_COOKIE","true"),
   rassert("code is 200",CODE,8,["200"]),
   rassert("has token",D,2,['"token":"tok-[0-9a-f]+"']),
 ]),
 http("Books","GET","/books",[],[
   header("auth","Authorization","Bearer ${token}"),
   regex("titles","title",'"title":"([^"]+)"',"$1$","-1","NONE"),
   regex("ids","id",'"id":(\\d+),"title":"([^"]+)"',"$2$ is $1$","2","NONE"),
   rassert("user demo",D,16,['"user":"demo"']),
   rassert("not unauthorized",D,6,["log in first"]),
   rassert("content type header",HDR,16,["Content-Type: application/json"]),
   size("code length",  "SizeAssertion.response_code","4",1),
 ]),
 http("Book list","GET","/grails-slc/book/list",[("first","${title_1}"),("count","${title_matchNr}"),("second","${id}")],[
   css("first link","link","table tr:nth-child(2) td a","href","1","NO_LINK"),
   css("all titles","ctitle","tr td:nth-child(2)","","-1","NONE"),
   xpathE("heading","h1","//h1/text()","NO_H1",True),
   xpathA("has table","//table",False,True),
   rassert("page text",D,2,["Book List","NoSuchText"]),
   rassert("equals message",MSG,8,["Okay"]),
 ], encode=True),
 http("Show","GET","${link}",[("h1","${h1}"),("t2","${ctitle_2}"),("n","${ctitle_matchNr}")],[
   rassert("url has show",URL,16,["/show/"]),
   rassert("not there",D,6,["nothing-here","nor-here"]),
 ], encode=True),
 http("Bad login","POST","/login",[("user","demo"),("pass","wrong")],[
   rassert("expect 401",CODE,8,["401"],True),
 ]),
 http("Books after",  "GET","/books",[],[
   header("auth","Authorization","Bearer ${token}x"),
   rassert("expect ok",CODE,8,["200"]),
   rassert("second message ignored",D,16,["never"]),
 ]),
]
tg = el("ThreadGroup","ThreadGroup","Users",[
  '<elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" testname="Loop Controller" enabled="true">'+bp("LoopController.continue_forever",False)+sp("LoopController.loops","1")+'</elementProp>',
  sp("ThreadGroup.num_threads","1"),sp("ThreadGroup.ramp_time","0"),bp("ThreadGroup.scheduler",False),sp("ThreadGroup.on_sample_error","continue")], children=samplers)
tp = el("TestPlan","TestPlan","Login extract reuse assert",[bp("TestPlan.functional_mode",False),bp("TestPlan.serialize_threadgroups",False),
  '<elementProp name="TestPlan.user_defined_variables" elementType="Arguments" guiclass="ArgumentsPanel" testclass="Arguments" testname="User Defined Variables" enabled="true"><collectionProp name="Arguments.arguments"/></elementProp>'], children=[tg])
open("/work/main/engine/testdata/extract/login.jmx","w").write('<?xml version="1.0" encoding="UTF-8"?>\n<jmeterTestPlan version="1.2" properties="2.8" jmeter="2.13">\n<hashTree>\n'+tp+'\n</hashTree>\n</jmeterTestPlan>\n')
