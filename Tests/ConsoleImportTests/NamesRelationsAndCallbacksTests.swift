import Testing
import TraceModel
@testable import ConsoleImport

/// Lines whose controller, phase, flag or relation used to be misread (issue 24): names in words or in any
/// script, begin/end markers in every style, each spelling of `animated`, arguments that are relations, and the
/// older and rarer UIKit callbacks.
@Suite("Console import: names, relations, phases and callbacks")
struct NamesRelationsAndCallbacksTests {
    static func parse(_ lines: [String]) throws -> ConsoleImportResult {
        try ConsoleLogParser().parse(lines: lines)
    }

    static func summary(_ line: String) throws -> String {
        let result = try parse([line])
        #expect(result.skippedLines.isEmpty, "skipped: \(line)")
        return try #require(result.events.first).summary
    }

    @Test("a name in words before the callback is one name; two such names are two controllers")
    func namesInWords() throws {
        let result = try Self.parse([
            "Settings view controller viewDidLoad called", "Avatar view controller viewDidLoad called",
            "DEBUG Settings view controller viewWillAppear", "[Lifecycle] Avatar view controller viewWillAppear",
        ])
        #expect(result.controllers.map(\.displayName) == ["Settings view controller#1", "Avatar view controller#2"])
        #expect(result.lines == [
            "0.000 Settings view controller#1 viewDidLoad", "0.001 Avatar view controller#2 viewDidLoad",
            "0.002 Settings view controller#1 viewWillAppear", "0.003 Avatar view controller#2 viewWillAppear",
        ])
        #expect(result.anonymousLineCount == 0)
    }

    @Test("lines that name no controller are listed: the log cannot tell their controllers apart")
    func anonymousLinesNamed() throws {
        let result = try Self.parse(["viewDidLoad", "Fetching…", "viewDidLoad", "HomeViewController viewDidLoad"])
        #expect(result.anonymousLines == [1, 3])
        #expect(result.anonymousLineCount == 2)
        #expect(result.controllers.map(\.displayName) == ["(anonymous)#1", "HomeViewController#2"])
    }

    @Test("begin and end in every line style", arguments: [
        ("-[SettingsViewController initWithCoder:] begin", "SettingsViewController#1 init begin"),
        ("-[SettingsViewController initWithCoder:] end", "SettingsViewController#1 init end"),
        ("-[SettingsViewController viewDidLoad] BEGIN", "SettingsViewController#1 viewDidLoad begin"),
        ("SettingsViewController.viewDidLoad() begin", "SettingsViewController#1 viewDidLoad begin"),
        ("[Settings] viewDidLoad end", "Settings#1 viewDidLoad end"),
        ("Settings: viewWillAppear(_:) end", "Settings#1 viewWillAppear end"),
        ("<MyApp.Settings: 0x7fb2c8d0a2b0> viewDidLoad() begin", "Settings#1 viewDidLoad begin"),
        ("Settings view did load begin", "Settings#1 viewDidLoad begin"),
        ("viewWillDisappear begin", "(anonymous)#1 viewWillDisappear begin"),
    ])
    func phases(line: String, summary: String) throws {
        #expect(try Self.summary(line) == summary)
    }

    @Test("a view loaded inside init, logged as Objective-C begin/end markers, nests inside it")
    func loadInsideInit() throws {
        let result = try Self.parse([
            "-[SettingsViewController initWithCoder:] begin", "-[SettingsViewController loadView]",
            "-[SettingsViewController viewDidLoad]", "-[SettingsViewController initWithCoder:] end",
        ])
        #expect(result.events.map(\.phase) == [.begin, .instant, .instant, .end])
        #expect(result.controllers.map(\.displayName) == ["SettingsViewController#1"])
    }

    @Test("every spelling of animated", arguments: [
        ("Home viewWillAppear: NO", "Home#1 viewWillAppear animated=false"),
        ("Home viewDidAppear:YES", "Home#1 viewDidAppear animated=true"),
        ("Home viewWillAppear animated:1", "Home#1 viewWillAppear animated=true"),
        ("-[Home viewWillDisappear:] animated = YES", "Home#1 viewWillDisappear animated=true"),
        ("Home.viewDidDisappear(animated: true)", "Home#1 viewDidDisappear animated=true"),
        ("Home viewWillAppear animated=false", "Home#1 viewWillAppear animated=false"),
        ("Home viewWillAppear(true)", "Home#1 viewWillAppear animated=true"),
        ("Home viewDidAppear(_:) false", "Home#1 viewDidAppear animated=false"),
        ("Home viewWillAppear isAnimated: TRUE", "Home#1 viewWillAppear animated=true"),
        ("Home viewWillAppear: 2", "Home#1 viewWillAppear"),
    ])
    func animatedSpellings(line: String, summary: String) throws {
        #expect(try Self.summary(line) == summary)
    }

    @Test("names in any script are kept whole: letters, emoji and invisible format characters")
    func unicodeNames() throws {
        let result = try Self.parse([
            "Überblick\u{AD}ViewController viewDidLoad", "ÜbersichtViewController viewDidLoad",
            "\u{202E}DetailViewController viewDidLoad", "DetailViewController viewDidLoad",
            "🚀LaunchViewController viewDidLoad", "設定ViewController viewDidLoad", "✅ viewWillAppear",
        ])
        #expect(result.controllers.map(\.typeName) == [
            "Überblick\u{AD}ViewController", "ÜbersichtViewController", "\u{202E}DetailViewController",
            "DetailViewController", "🚀LaunchViewController", "設定ViewController", ConsoleLogParser.anonymousTypeName,
        ])
        // Each controller loaded once: no name was cut to its ASCII tail and merged with another.
        #expect(result.events.count == 7)
        #expect(Set(result.events.compactMap(\.controller)).count == 7)
    }

    @Test("viewDidUnload is a callback; viewWillUnload and the other UIKit methods are uikit.callback marks", arguments: [
        ("-[ListViewController viewDidUnload]", "ListViewController#1 viewDidUnload"),
        ("-[ListViewController viewWillUnload]", "mark uikit.callback method=viewWillUnload() of=UIViewController @ ListViewController#1"),
        ("ListViewController awakeFromNib", "mark uikit.callback method=awakeFromNib() of=NSObject @ ListViewController#1"),
        ("ListViewController.decodeRestorableState(with:)",
         "mark uikit.callback method=decodeRestorableState(with:) of=UIViewController @ ListViewController#1"),
        ("-[ListViewController encodeRestorableStateWithCoder:]",
         "mark uikit.callback method=encodeRestorableState(with:) of=UIViewController @ ListViewController#1"),
        ("ListViewController applicationFinishedRestoringState()",
         "mark uikit.callback method=applicationFinishedRestoringState() of=UIViewController @ ListViewController#1"),
        ("+[ListViewController viewControllerWithRestorationIdentifierPath:coder:]",
         "mark uikit.callback method=viewController(withRestorationIdentifierPath:coder:)/application(_:viewControllerWithRestorationIdentifierPath:coder:) of=UIViewControllerRestoration/UIApplicationDelegate"),
        ("ListViewController traitCollectionDidChange(_:)",
         "mark uikit.callback method=traitCollectionDidChange(_:) of=UIViewController @ ListViewController#1"),
        ("-[ListViewController prepareForSegue:sender:]",
         "mark uikit.callback method=prepare(for:sender:) of=UIViewController @ ListViewController#1"),
        ("AppDelegate application(_:configurationForConnecting:options:)", "application(_:configurationForConnecting:options:)"),
        ("-[AppDelegate application:configurationForConnectingSceneSession:options:]",
         "application(_:configurationForConnecting:options:)"),
        ("AppDelegate application(_:didDiscardSceneSessions:)", "application(_:didDiscardSceneSessions:)"),
        ("AppDelegate application(_:willFinishLaunchingWithOptions:)",
         "mark uikit.callback method=application(_:willFinishLaunchingWithOptions:) of=UIApplicationDelegate"),
        ("SceneDelegate stateRestorationActivity(for:)",
         "mark uikit.callback method=stateRestorationActivity(for:) of=UISceneDelegate"),
        ("Sheet adaptivePresentationStyle(for:traitCollection:)",
         "mark uikit.callback method=adaptivePresentationStyle(for:traitCollection:) of=UIAdaptivePresentationControllerDelegate"),
    ])
    func otherCallbacks(line: String, summary: String) throws {
        #expect(try Self.summary(line) == summary)
    }

    /// Delegate methods whose Swift name starts with a generic word (`application`, `scene`,
    /// `presentationController`) or shares its first word with another method: the whole selector names them.
    @Test("a delegate method is named by its whole selector, in Swift and in Objective-C", arguments: [
        ("AppDelegate application(_:open:options:)", "application(_:open:options:) of=UIApplicationDelegate"),
        ("-[AppDelegate application:openURL:options:]", "application(_:open:options:) of=UIApplicationDelegate"),
        ("-[AppDelegate application:openURL:sourceApplication:annotation:]",
         "application(_:open:sourceApplication:annotation:) of=UIApplicationDelegate"),
        ("-[AppDelegate application:handleOpenURL:]", "application(_:handleOpen:) of=UIApplicationDelegate"),
        ("AppDelegate application(_:continue:restorationHandler:)",
         "application(_:continue:restorationHandler:) of=UIApplicationDelegate"),
        ("SceneDelegate scene(_:continue:)", "scene(_:continue:) of=UISceneDelegate"),
        ("-[SceneDelegate scene:continueUserActivity:]", "scene(_:continue:) of=UISceneDelegate"),
        ("SceneDelegate scene(_:didUpdate:)", "scene(_:didUpdate:) of=UISceneDelegate"),
        ("-[AppDelegate application:didUpdateUserActivity:]", "application(_:didUpdate:) of=UIApplicationDelegate"),
        ("SceneDelegate windowScene(_:didUpdate:interfaceOrientation:traitCollection:)",
         "windowScene(_:didUpdate:interfaceOrientation:traitCollection:) of=UIWindowSceneDelegate"),
        ("SceneDelegate.windowScene(_:performActionFor:completionHandler:)",
         "windowScene(_:performActionFor:completionHandler:) of=UIWindowSceneDelegate"),
        ("AppDelegate application(_:userDidAcceptCloudKitShareWith:)",
         "application(_:userDidAcceptCloudKitShareWith:) of=UIApplicationDelegate"),
        ("-[AppDelegate application:userDidAcceptCloudKitShareWithMetadata:]",
         "application(_:userDidAcceptCloudKitShareWith:) of=UIApplicationDelegate"),
        ("SceneDelegate windowScene(_:userDidAcceptCloudKitShareWith:)",
         "windowScene(_:userDidAcceptCloudKitShareWith:) of=UIWindowSceneDelegate"),
        ("AppDelegate application(_:handlerFor:)", "application(_:handlerFor:) of=UIApplicationDelegate"),
        ("-[AppDelegate application:handleIntent:completionHandler:]",
         "application(_:handle:completionHandler:) of=UIApplicationDelegate"),
        ("Sheet presentationController(_:prepare:)", "presentationController(_:prepare:) of=UIAdaptivePresentationControllerDelegate"),
        ("Sheet adaptivePresentationStyle(for:)", "adaptivePresentationStyle(for:) of=UIAdaptivePresentationControllerDelegate"),
        ("-[Sheet adaptivePresentationStyleForPresentationController:]",
         "adaptivePresentationStyle(for:) of=UIAdaptivePresentationControllerDelegate"),
        ("-[Sheet adaptivePresentationStyleForPresentationController:traitCollection:]",
         "adaptivePresentationStyle(for:traitCollection:) of=UIAdaptivePresentationControllerDelegate"),
        ("DetailViewController willRotate(to:duration:)", "willRotate(to:duration:) of=UIViewController @ DetailViewController#1"),
        ("DetailViewController shouldAutorotate(to:)", "shouldAutorotate(to:) of=UIViewController @ DetailViewController#1"),
        ("-[MasterViewController collapseSecondaryViewController:forSplitViewController:]",
         "collapseSecondaryViewController(_:for:) of=UIViewController @ MasterViewController#1"),
        ("MasterViewController separateSecondaryViewController(for:)",
         "separateSecondaryViewController(for:) of=UIViewController @ MasterViewController#1"),
        ("MasterViewController targetViewController(forAction:sender:)",
         "targetViewController(forAction:sender:) of=UIViewController @ MasterViewController#1"),
        ("DetailViewController size(forChildContentContainer:withParentContainerSize:)",
         "size(forChildContentContainer:withParentContainerSize:) of=UIViewController @ DetailViewController#1"),
    ])
    func wholeSelectors(line: String, method: String) throws {
        #expect(try Self.summary(line) == "mark uikit.callback method=" + method)
    }

    @Test("a generic first word without a known selector after it is no method", arguments: [
        "application(_:doSomething:)", "application started", "scene(_: nil)", "size(width: 320)", "application:foo:",
    ])
    func genericWordsStayProse(line: String) throws {
        let result = try Self.parse([line])
        #expect(result.events.isEmpty)
    }

    @Test("bare words that name a call only with parentheses stay prose")
    func callOnlyWords() throws {
        let result = try Self.parse(["present the paywall", "dismiss reason: timeout", "prepare data", "show the banner"])
        #expect(result.events.isEmpty)
        #expect(result.skippedLines.map(\.line) == [1, 2, 3, 4])
    }

    @Test("a controller passed as an argument is a relation, not the line's controller", arguments: [
        ("ChildViewController willMove(toParent: MenuContainerController)",
         "ChildViewController#1 willMove(toParent:) parent=MenuContainerController#2"),
        ("willMoveToParentViewController: <MenuContainerController: 0x7b6a3c10>",
         "(anonymous)#1 willMove(toParent:) parent=MenuContainerController#2"),
        ("didMove(toParent:) Optional(<MyApp.MenuContainerController: 0x7fb2c8d0a2b0>)",
         "(anonymous)#1 didMove(toParent:) parent=MenuContainerController#2"),
        ("willMove(toParent:) <MyApp.ChildViewController: 0x7fb2c8d0a2b0>", "ChildViewController#1 willMove(toParent:)"),
        ("HomeViewController present(_:animated:) <MyApp.DetailViewController: 0x7fb2c8d0a2b0>",
         "present container=HomeViewController#1 DetailViewController#2"),
        ("present(DetailViewController(), animated: true)", "present DetailViewController#1 animated=true"),
        ("-[NavigationController pushViewController:animated:] <DetailViewController: 0x7b6a3c10>",
         "pushViewController container=NavigationController#1 DetailViewController#2"),
        ("ShellViewController addChild(_:) SidebarViewController", "addChild container=ShellViewController#1 SidebarViewController#2"),
    ])
    func argumentsAreRelations(line: String, summary: String) throws {
        #expect(try Self.summary(line) == summary)
    }

    @Test("a navigation delegate's line goes to the controller it shows, never to a new one")
    func delegateMarks() throws {
        let result = try Self.parse([
            " <A: 0x6c11b10> viewDidLoad", " <UINavigationController: 0x6c118f0> willShowViewController <A: 0x6c11b10>",
            " <UINavigationController: 0x6c118f0> didShowViewController <B: 0x6c16980>",
        ])
        #expect(result.controllers.map(\.displayName) == ["A#1"])
        #expect(result.events.map(\.summary) == [
            "A#1 viewDidLoad",
            "mark uikit.callback method=navigationController(_:willShow:animated:) of=UINavigationControllerDelegate @ A#1",
            "mark uikit.callback method=navigationController(_:didShow:animated:) of=UINavigationControllerDelegate",
        ])
    }
}

extension NamesRelationsAndCallbacksTests {
    @Test("a method name run into CJK prose is read, and the prose is no controller's name")
    func cjkProse() throws {
        // www.191i.com/689936249977104364.html (memory warnings before iOS 6), its sentence as written.
        let sentence = "当收到内存警告时,如果viewcontroller未显示(在后台),会执行didReceiveMemoryWarning -> viewDidUnLoad;"
        #expect(try Self.summary(sentence) == "(anonymous)#1 didReceiveMemoryWarning")
        #expect(try Self.summary("loadView会在页面") == "(anonymous)#1 loadView")
        // A class name in CJK letters is still one name.
        #expect(try Self.summary("設定ViewController viewDidLoad") == "設定ViewController#1 viewDidLoad")
    }
}

extension NamesRelationsAndCallbacksTests {
    @Test("a second viewDidLoad of one name with no deinit between is named: the log may not tell two instances apart")
    func repeatedLoadsNamed() throws {
        let result = try Self.parse([
            "DetailViewController viewDidLoad", "DetailViewController viewDidAppear", "DetailViewController viewDidLoad",
            "DetailViewController deinit", "DetailViewController viewDidLoad",
            "<MyApp.Card: 0x7fb2c8d0a2b0> viewDidLoad()", "<MyApp.Card: 0x7fb2c8d0a2b0> viewDidLoad()",
        ])
        #expect(result.repeatedLoads.map { "\($0.controller.displayName) \($0.firstLine) \($0.line)" } == ["DetailViewController#1 1 3"])
        #expect(result.repeatedLoadCount == 1)
    }
}
