#!/usr/bin/python3
"""The web front in a real browser: Debian's headless Chromium driven by Selenium (python3-selenium and
chromium-driver), against a running `librarycli serve` on a demo database.

Run by Tests/Browser/run.sh (which .ci/run calls), which starts the server, passes its URL, and stops everything on
every exit path:

    bash Tests/Browser/run.sh [path/to/librarycli]

Every wait is bounded in time; screenshots go to --output (never committed).
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import JavascriptException, NoAlertPresentException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

SHOTS = [(390, 844), (1280, 900)]
MARKUP_TITLE = "<img src=x onerror=alert(1)>"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def text(element):
    """What an element holds as text, shown or not (Selenium's .text leaves out what is not shown yet)."""
    return element.get_attribute("textContent")


def wait_for(what, predicate, timeout=5.0, interval=0.025):
    """Polls `predicate` until it returns something truthy; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = predicate()
        except (JavascriptException, Failure) as error:
            last = error
            if time.monotonic() > deadline:
                raise Failure(f"timed out after {timeout} s waiting for {what}: {error}")
        else:
            if last:
                return last
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout} s waiting for {what} (last: {last!r})")
        time.sleep(interval)


# MARK: - The server and the command line


class Library:
    def __init__(self, args):
        self.url = args.url.rstrip("/")
        self.binary = args.binary
        self.db = args.db
        self.pid_file = args.server_pid_file
        self.server_log = args.server_log
        self.port = urllib.parse.urlsplit(self.url).port
        self.restarted = None
        self.tokens = {}

    def cli(self, *arguments, check_exit=True, input=None):
        process = subprocess.run(
            [self.binary, "--db", self.db, *arguments], capture_output=True, text=True, timeout=30,
            env={**os.environ, "NO_COLOR": "1"}, input=input)
        if check_exit and process.returncode != 0:
            raise Failure(f"librarycli {' '.join(arguments)} exited {process.returncode}: {process.stderr}")
        return process

    def token(self, who):
        if who not in self.tokens:
            arguments = ["tokens", "create", "--librarian"] if who == "librarian" else [
                "tokens", "create", "--client", str(who)]
            self.tokens[who] = self.cli("-q", *arguments, "--label", f"browser test {who}").stdout.strip()
        return self.tokens[who]

    def api(self, method, path, who=1, body=None, headers=None):
        """One API call; returns (status, headers, parsed body or None)."""
        fields = {"Authorization": f"Bearer {self.token(who)}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            fields["Content-Type"] = "application/json"
        if method in ("POST", "DELETE"):
            fields.setdefault("Idempotency-Key", os.urandom(12).hex())
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=fields)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read()
                return response.status, response.headers, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = None
            return error.code, error.headers, parsed

    def screen(self, query="", who=1):
        status, headers, document = self.api("GET", f"/v1/screen{query}", who)
        check(status == 200, f"GET /v1/screen{query} answered {status}")
        return headers["ETag"].strip('"'), document

    def event_streams(self):
        """How many event streams the server's access log shows."""
        with open(self.server_log) as log:
            return log.read().count("GET /v1/screen/events")

    def stop_server(self):
        pid = int(open(self.pid_file).read().strip())
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            if self.restarted and self.restarted.pid == pid and self.restarted.poll() is not None:
                return
            time.sleep(0.05)
        raise Failure("the server did not stop within 15 s of SIGTERM")

    def start_server(self):
        """Starts a new server on the same port (the page reconnects to the same address)."""
        log_path = self.server_log + ".restart"
        deadline = time.monotonic() + 20
        while True:
            with open(log_path, "w") as log:
                process = subprocess.Popen(
                    [self.binary, "--db", self.db, "serve", "--port", str(self.port)], stdout=subprocess.DEVNULL,
                    stderr=log)
            with open(self.pid_file, "w") as file:
                file.write(f"{process.pid}\n")
            self.restarted = process
            while process.poll() is None and time.monotonic() < deadline:
                if "Listening on" in open(log_path).read():
                    return
                time.sleep(0.05)
            check(time.monotonic() < deadline, f"the server would not start again on port {self.port}")
            time.sleep(0.2)  # it exited (the port not free yet?): try again


# MARK: - A proxy that can drop connections


class Proxy:
    """A TCP relay from a port of its own to the server's: the page talks through it, so a test can drop every open
    connection (as a network would) while the server keeps running."""

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.open = set()
        self.accepted = 0
        threading.Thread(target=self.accept, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open.update((client, server))
                self.accepted += 1
            threading.Thread(target=self.pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self.pump, args=(server, client), daemon=True).start()

    def pump(self, source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            with self.lock:
                self.open.discard(source)
                self.open.discard(target)

    def drop(self):
        """Cuts every open connection."""
        with self.lock:
            ends = list(self.open)
        for end in ends:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self):
        self.listener.close()
        self.drop()


# MARK: - The browser


class Browser:
    def __init__(self, output):
        self.output = output
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--disable-extensions", "--no-first-run", "--window-size=1280,900"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_page_load_timeout(15)
        self.driver.set_script_timeout(15)
        self.allowed_log = []
        self.size(1280, 900)

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass

    def size(self, width, height):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.settle()

    def media(self, **features):
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": name.replace("_", "-"), "value": value} for name, value in features.items()]})

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def settle(self):
        """Waits until no animation runs (FLIP and fade-ins take 300 ms at most)."""
        wait_for("animations to end", lambda: self.js("return document.getAnimations().length === 0"), 3)

    def shot(self, name):
        os.makedirs(self.output, exist_ok=True)
        self.js("document.activeElement?.blur(); window.scrollTo(0, 0)")
        self.settle()
        path = os.path.join(self.output, name)
        self.driver.save_screenshot(path)
        return path

    def console_errors(self):
        errors = []
        for entry in self.driver.get_log("browser"):
            if entry["level"] != "SEVERE":
                continue
            if any(allowed in entry["message"] for allowed in self.allowed_log):
                continue
            errors.append(entry["message"])
        return errors

    def etag(self):
        return self.js("return document.getElementById('screen').dataset.etag || ''")

    def counts(self):
        return self.js("""const d = document.getElementById('screen').dataset;
            return {applied: +d.applied, reloads: +d.reloads, mismatches: +d.mismatches}""")

    def drawn(self):
        """The page's sections: ids, item ids and texts, supplementary keys and texts, in DOM order."""
        return self.js(r"""
            const text = (node, selector) => [...node.querySelectorAll(selector)].map(e => e.textContent);
            return [...document.querySelectorAll('#screen > section[data-section-id]')].map(section => ({
              id: section.dataset.sectionId,
              layout: section.dataset.layout,
              items: [...section.querySelectorAll(':scope > .items > .item')].map(item => ({
                id: item.dataset.itemId,
                title: text(item, '.item-title').join(''),
                subtitle: text(item, '.item-subtitle').join(''),
                lines: text(item, '.item-line'),
                badges: text(item, '.badge'),
                actions: text(item, '.actions button'),
                reasons: text(item, '.action-reason'),
              })),
              supplementaries: [...section.querySelectorAll(
                  ':scope > .section-top > [data-key], :scope > .section-bottom > [data-key]')].map(node => ({
                key: node.dataset.key,
                title: node.querySelector('.supplementary-title').textContent,
                lines: text(node, '.supplementary-line'),
              })),
            }));""")

    def item(self, section, item_id):
        return self.driver.find_element(
            By.CSS_SELECTOR, f'section[data-section-id="{section}"] .item[data-item-id="{item_id}"]')

    def item_ids(self, section):
        return self.js(f"""return [...document.querySelectorAll(
            'section[data-section-id="{section}"] > .items > .item')].map(e => e.dataset.itemId)""")


# MARK: - What the page should show for a document


def drawable(action):
    if not isinstance(action.get("method"), str) or not isinstance(action.get("href"), str):
        return False
    if action["method"] == "GET":
        return action["href"].startswith("/v1/screen") and "{text}" not in action["href"]
    return True


def verb_of(arguments):
    """A command's verb: the first of its arguments that is not an option ("take" of "take 3")."""
    return next((word for word in arguments.split() if not word.startswith("-")), "")


def commands_of(document):
    """The first word of the document's commands ("librarycli"), and the verbs of those the page offers as a control
    that can be used (drawn, search boxes too, and not disabled), as the page finds them (web/render.js commandsOf)."""
    program, verbs = None, set()
    owners = [owner for section in document["sections"] for owner in section["items"] + section["supplementaries"]]
    owners += [document["emptyState"]] if document.get("emptyState") else []
    for owner in owners:
        for action in owner.get("actions", []):
            words = action.get("command", "").split()
            if not words:
                continue
            program = program or words[0]
            usable = isinstance(action.get("method"), str) and isinstance(action.get("href"), str) and (
                action["method"] != "GET" or action["href"].startswith("/v1/screen"))
            if words[0] == program and usable and not action.get("disabled"):
                verbs.add(verb_of(" ".join(words[1:])))
    return program, verbs


def front_line(line, commands):
    """A line as the page shows it (web/render.js frontLine): without the terminal command it ends with when the page
    offers that command, left out (None) when it does not (a librarian's command) or when it is only a command."""
    program, verbs = commands
    if not program:
        return line
    found = re.search(r"(^|:\s+)" + re.escape(program) + r"(\s|$)", line)
    if not found:
        return line
    before = line[:found.start()].rstrip()
    if not before or verb_of(line[found.end():]) not in verbs:
        return None
    return before if before[-1] in ".!?…" else before + "."


def expected(document):
    commands = commands_of(document)
    sections = []
    for section in document["sections"]:
        items = []
        for item in section["items"]:
            actions = [action for action in item["actions"] if drawable(action)]
            items.append({
                "id": item["id"], "title": item["title"], "subtitle": item.get("subtitle", ""),
                "lines": item["lines"], "badges": [badge["text"] for badge in item["badges"]],
                "actions": [action["title"] for action in actions],
                "reasons": [action["reason"] for action in actions if action.get("disabled")],
            })
        supplementaries = []
        for supplementary in section["supplementaries"]:
            title = supplementary["title"]
            if isinstance(supplementary.get("count"), int):
                title += " " + f"{supplementary['count']:,}"
            lines = [front_line(line, commands) for line in supplementary["lines"]]
            supplementaries.append({
                "key": f"{supplementary['kind']}:{supplementary['id']}", "title": title,
                "lines": [line for line in lines if line is not None]})
        sections.append({"id": section["id"], "layout": section["layout"]["style"], "items": items,
                         "supplementaries": supplementaries})
    return sections


def summary(document, section_id):
    """What the page reads out for a section after a search or another page (web/render.js summarize): its header's
    title and count, its empty state's title when it has no items, its footer's title."""
    section = next(section for section in document["sections"] if section["id"] == section_id)

    def first(kind):
        return next((s for s in section["supplementaries"] if s["kind"] == kind), None)

    def sentence(words):
        return words if words[-1:] in ".!?…" else words + "."
    parts = []
    header, empty, footer = first("header"), first("empty"), first("footer")
    if header and header.get("title"):
        count = header.get("count")
        parts.append(sentence(f"{header['title']} ({count})" if isinstance(count, int) else header["title"]))
    if not section["items"] and empty and empty.get("title"):
        parts.append(sentence(empty["title"]))
    if footer and footer.get("title"):
        parts.append(sentence(footer["title"]))
    return " ".join(parts)


def compare(drawn, document, what):
    want = expected(document)
    if drawn == want:
        return
    for index, (got, wanted) in enumerate(zip(drawn, want)):
        if got != wanted:
            for key in wanted:
                if got.get(key) != wanted[key]:
                    if key == "items":
                        got_ids = [item["id"] for item in got["items"]]
                        wanted_ids = [item["id"] for item in wanted["items"]]
                        if got_ids != wanted_ids:
                            raise Failure(f"{what}: section {wanted['id']} items {got_ids} != {wanted_ids}")
                        for got_item, wanted_item in zip(got["items"], wanted["items"]):
                            if got_item != wanted_item:
                                raise Failure(f"{what}: item {wanted_item['id']}: {got_item} != {wanted_item}")
                    raise Failure(f"{what}: section {wanted['id']} {key}: {got.get(key)!r} != {wanted[key]!r}")
    raise Failure(f"{what}: sections {[s['id'] for s in drawn]} != {[s['id'] for s in want]}")


# MARK: - The tests


class Tests:
    def __init__(self, library, browser, proxy):
        self.library = library
        self.browser = browser
        self.driver = browser.driver
        self.proxy = proxy
        self.page = proxy.url
        self.query = ""

    def in_sync(self, query=None, timeout=5.0, what="the page"):
        """Waits until the page shows the server's current screen, and compares them."""
        etag, document = self.library.screen(self.query if query is None else query)
        wait_for(f"{what} to reach version {etag}", lambda: self.browser.etag() == etag, timeout)
        compare(self.browser.drawn(), document, what)
        check(self.browser.counts()["mismatches"] == 0, "a change set did not fit the page")
        return document

    def click(self, element):
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        self.browser.settle()
        element.click()

    # 1

    def sign_in(self):
        driver = self.driver
        driver.get(self.page + "/")
        wait_for("the sign-in form", lambda: driver.find_element(By.ID, "sign-in").is_displayed())
        demo = wait_for("the demo clients", lambda: driver.find_elements(By.CSS_SELECTOR, ".demo-client"))
        texts = [text(button) for button in demo]
        check(any("C-0001" in text and "1111" in text for text in texts), f"demo PINs shown: {texts}")
        self.browser.shot("sign-in-1280x900.png")
        # A wrong PIN is refused in words and signs no one in.
        driver.find_element(By.ID, "card").send_keys("C-0001")
        driver.find_element(By.ID, "pin").send_keys("0000")
        driver.find_element(By.ID, "sign-in-submit").click()
        wait_for("the refusal", lambda: "do not match" in text(driver.find_element(By.ID, "sign-in-error")))
        check(driver.execute_script("return sessionStorage.getItem('librarycli.token')") is None,
              "a token was kept after a wrong PIN")
        self.browser.allowed_log.append("/v1/sessions - Failed to load resource: the server responded with a "
                                        "status of 401")
        # By keyboard: card, Tab, PIN, Tab to Sign in, Enter. The refusal leaves the focus on the PIN, not nowhere.
        for field in ("card", "pin"):
            driver.find_element(By.ID, field).clear()
        driver.find_element(By.ID, "card").click()
        ActionChains(driver).send_keys("C-0001", Keys.TAB, "0000", Keys.TAB).perform()
        check(self.browser.js("return document.activeElement.id") == "sign-in-submit", "Tab reaches Sign in")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        wait_for("the refusal again", lambda: "do not match" in text(driver.find_element(By.ID, "sign-in-error")))
        focused = wait_for("the focus back in the form", lambda: self.browser.js(
            "return document.activeElement === document.body ? null : document.activeElement.id"))
        check(focused == "pin", f"after a refused sign-in the focus goes to the PIN, not {focused!r}")
        driver.find_element(By.ID, "card").clear()
        demo[0].click()
        check(driver.find_element(By.ID, "pin").get_attribute("value") == "1111", "the demo client filled the PIN")
        # The card typed in another case and with spaces: the bar shows it as the library keeps it.
        driver.find_element(By.ID, "card").clear()
        driver.find_element(By.ID, "card").send_keys("  c-0001  ")
        driver.find_element(By.ID, "sign-in-submit").click()
        wait_for("the screen", lambda: self.browser.item_ids("client-info"))
        who = text(driver.find_element(By.ID, "who"))
        check(who == "Card C-0001", f"the bar shows the card as the library keeps it, not as typed: {who!r}")
        focused = self.browser.js("return document.activeElement.tagName + ' ' + document.activeElement.textContent")
        check(focused == "H1 Your library", f"the focus goes to the screen's heading after sign-in, not {focused!r}")
        check(self.browser.js("return [...document.querySelectorAll('h1')].filter(e => !e.closest('[hidden]'))"
                              ".length") == 1, "the screen has one h1")
        token = driver.execute_script("return sessionStorage.getItem('librarycli.token')")
        check(token and token.startswith("lc_"), "the token is kept in sessionStorage")
        check(driver.execute_script("return localStorage.length") == 0, "nothing in localStorage")
        check("lc_" not in driver.current_url, "no token in the address")

    # 2

    def matches_cli(self):
        listed = json.loads(self.library.cli("--json", "--client", "1", "list").stdout)
        self.in_sync(what="the first screen")
        drawn = self.browser.drawn()
        check([section["id"] for section in drawn] == [section["id"] for section in listed["sections"]],
              "the sections of --json list")
        for got, wanted in zip(drawn, listed["sections"]):
            check([item["id"] for item in got["items"]] == [item["id"] for item in wanted["items"]],
                  f"the items of {wanted['id']} as --json list has them")
        check(drawn[1]["items"] == [] and drawn[1]["supplementaries"][1]["title"] ==
              "You don't have any books right now!", "John starts with the empty state")
        check(drawn[1]["supplementaries"][1]["lines"] == ["Pick one from the library below."],
              f"the empty state without the terminal's command: {drawn[1]['supplementaries'][1]['lines']}")
        shown = self.browser.js("return document.getElementById('main').innerText")
        check("librarycli" not in shown, "no terminal command on the page")
        check([s["layout"] for s in drawn] == ["card", "row", "grid"], "the layout hints")
        # Right-to-left and other scripts are isolated.
        dirs = self.browser.js("return [...document.querySelectorAll('.item-title')].map(e => e.dir)")
        check(dirs and all(value == "auto" for value in dirs), "titles are dir=auto")
        self.button_names()

    def button_names(self):
        """Each item's button is named, for screen readers, by its action and its item ("Take The Odyssey"), while
        its visible label stays the action's title ("Take"): no two buttons of a section share a name (a book held is
        in Your books and in the library, with a Return in both)."""
        buttons = self.driver.find_elements(By.CSS_SELECTOR, "#screen .item .actions button")
        check(buttons, "the screen has item buttons")
        names = {}
        for button in buttons:
            section, title = self.browser.js("""const item = arguments[0].closest('.item');
                return [item.closest('section').dataset.sectionId, item.querySelector('.item-title').textContent]""",
                                             button)
            name = button.accessible_name
            check(name == f"{text(button)} {title}", f"a button named {name!r}, not {text(button)!r} {title!r}")
            names.setdefault(section, []).append(name)
        duplicates = sorted({name for group in names.values() for name in group if group.count(name) > 1})
        check(duplicates == [], f"buttons of a section that share a name: {duplicates}")

    def librarian_lines(self):
        """Lines that only tell a librarian what to run ("Add the demo catalog: librarycli seed") are left out, as are
        those whose command the screen offers no usable button for ("Pick one from the library below" with no book to
        take); lines the page has a control for keep their words. The document of an empty library, drawn by the
        page's own code."""
        folder = tempfile.mkdtemp(prefix="librarycli-empty-")
        try:
            empty = os.path.join(folder, "empty.sqlite")

            # The library named by LIBRARY_DB, the client the default one: the document's commands are written
            # as a server writes them (`librarycli seed`), without the --db or --client a command line gave.
            environment = dict(os.environ, LIBRARY_DB=empty)

            def run(*arguments):
                return subprocess.run([self.library.binary, "-q", *arguments], capture_output=True, env=environment,
                                      text=True, timeout=30, check=True).stdout
            run("init", "--empty")
            run("clients", "add", "Empty Reader", "--card", "E-0001")
            document = json.loads(run("--json", "list"))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        lines = [line for section in document["sections"] for supplementary in section["supplementaries"]
                 for line in supplementary["lines"]]
        check("Add the demo catalog: librarycli seed" in lines, f"the document has the librarian's lines: {lines}")
        drawn = self.driver.execute_async_script("""
            const [screen, done] = arguments;
            import('/assets/render.js').then((render) => {
              const ui = {perform() {}, navigate() {}, explain() {}, statusOf: () => '', currentSearch: () => ''};
              const scratch = document.createElement('div');
              document.body.append(scratch);
              render.draw(scratch, {sections: screen.sections, emptyState: screen.emptyState ?? null}, ui);
              const result = Object.fromEntries([...scratch.querySelectorAll('[data-key]')].map(node => [
                node.dataset.key, [...node.querySelectorAll('.supplementary-title, .supplementary-line')]
                  .map(line => line.textContent)]));
              scratch.remove();
              done(result);
            }, (error) => done(String(error)));""", document)
        check(drawn.get("empty:library-books-empty") == ["The library has no books yet."],
              f"an empty library says only that: {drawn}")
        check(drawn.get("empty:client-books-empty") == ["You don't have any books right now!"],
              f"no book to pick, so no line telling to pick one: {drawn}")
        check(drawn.get("header:library-books-header") == ["Library 0"], f"the header stays: {drawn}")
        want = {f"{s['kind']}:{s['id']}": [line for line in (front_line(line, commands_of(document))
                                                            for line in s["lines"]) if line is not None]
                for section in document["sections"] for s in section["supplementaries"]}
        check({key: lines[1:] for key, lines in drawn.items()} == want, f"the rule as the tests have it: {want}")

    def grid_columns(self):
        return self.browser.js("""
            const items = [...document.querySelectorAll('section[data-section-id="library-books"] > .items > .item')];
            const top = items[0].getBoundingClientRect().top;
            return items.filter(e => Math.abs(e.getBoundingClientRect().top - top) < 1).length;""")

    def overflow(self):
        return self.browser.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")

    # 3

    def columns(self):
        for (width, height), columns in [((390, 844), 2), ((1280, 900), 4)]:
            self.browser.size(width, height)
            check(self.grid_columns() == columns, f"{columns} columns at {width} px, not {self.grid_columns()}")
            check(self.overflow() <= 0, f"nothing wider than the page at {width} px")
        for width in (320, 640):  # 640: 1280 px at 200% zoom
            self.browser.size(width, 800)
            check(self.overflow() <= 0, f"nothing wider than the page at {width} px ({self.overflow()} px more)")
            check(self.grid_columns() >= 1, "a grid")
        self.browser.size(1280, 900)
        for width, height in SHOTS:
            self.browser.size(width, height)
            self.browser.shot(f"empty-your-books-{width}x{height}.png")
        self.browser.size(1280, 900)

    # 4

    def take_and_return(self):
        book = self.library.screen()[1]["sections"][2]["items"][2]
        check(book["availability"] == "available", "book 3 is available")
        number = book["bookId"]
        self.click(self.browser.item("library-books", f"book-{number}").find_element(By.CSS_SELECTOR, ".button-take"))
        wait_for("the book in Your books",
                 lambda: self.browser.item_ids("client-books") == [f"client-book-{number}"])
        wait_for("the checkmark", lambda: "✓ yours" in text(self.browser.item("library-books", f"book-{number}")))
        self.in_sync(what="after Take")
        said = wait_for("the announcement", lambda: "Your books" in text(self.driver.find_element(By.ID, "announcer"))
                        and text(self.driver.find_element(By.ID, "announcer")))
        check("Your books: 1 added." in said and "Hey John Doe! changed." in said and "client-info" not in said,
              f"the change is read out in words, sections by their names: {said!r}")
        drawn = self.browser.drawn()
        check("You don't have any books right now!" not in json.dumps(drawn[1]), "the empty state left")
        # Return with two books held: the focus goes to the other book's Return; then Enter on it returns that one
        # too, and the focus goes to the section (its empty state).
        other = self.free_book()
        self.library.api("POST", "/v1/loans", body={"bookIds": [other]})
        self.in_sync(what="with two books")
        held = self.browser.item_ids("client-books")
        self.click(self.browser.item("client-books", f"client-book-{number}").find_element(
            By.CSS_SELECTOR, ".button-return"))
        wait_for("the book to go", lambda: f"client-book-{number}" not in self.browser.item_ids("client-books"))
        self.in_sync(what="after Return")
        focused = self.browser.js("""const e = document.activeElement;
            return [e.closest('.item')?.dataset.itemId, e.dataset.actionId]""")
        check(focused == [f"client-book-{other}", "return"] and len(held) == 2,
              f"after Return the focus goes to the next book's Return, not {focused}")
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        wait_for("the empty state again", lambda: self.driver.find_elements(
            By.CSS_SELECTOR, 'section[data-section-id="client-books"] [data-kind="empty"]'))
        self.in_sync(what="after Return")
        focused = self.browser.js("return document.activeElement.dataset.sectionId || document.activeElement.tagName")
        check(focused == "client-books", f"after the last Return the focus goes to the section, not {focused}")
        header = self.driver.find_element(By.CSS_SELECTOR, 'section[data-section-id="client-books"] h2')
        check(text(header) == "Your books", "the header stays with the empty state")

    def renew(self):
        """Renew on one of Your books moves its due date by a loan period; after the last renewal the rules allow,
        its Renew says why it is refused, and the book stays."""
        number = self.free_book()
        self.library.api("POST", "/v1/loans", body={"bookIds": [number]})
        self.in_sync(what="after a take elsewhere")

        def card():
            return self.browser.item("client-books", f"client-book-{number}")

        def due():
            found = re.search(r"Due \d{4}-\d{2}-\d{2}", text(card()))
            check(found is not None, f"the card shows its due date: {text(card())!r}")
            return found.group(0)
        for renewal in (1, 2):
            before = due()
            self.click(card().find_element(By.CSS_SELECTOR, ".button-renew"))
            wait_for(f"renewal {renewal} to move the due date", lambda: due() != before)
            self.in_sync(what=f"after renewal {renewal}")
        button = card().find_element(By.CSS_SELECTOR, ".button-renew")
        check(button.get_attribute("aria-disabled") == "true", "Renew is refused after the second renewal")
        check("Renewed 2 times already: please return it." in text(card()), f"the card says why: {text(card())!r}")
        self.click(button)
        self.in_sync(what="after a refused Renew")
        check(f"client-book-{number}" in self.browser.item_ids("client-books"), "the book stays")
        self.library.api("DELETE", f"/v1/loans/{number}")
        self.in_sync(what="after the return")

    def keyboard(self):
        """Tab reaches a Take button, its focus is visible, and Enter takes the book."""
        self.driver.find_element(By.TAG_NAME, "body").click()
        self.driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        actions = ActionChains(self.driver)
        for _ in range(60):
            actions.send_keys(Keys.TAB).perform()
            if self.browser.js("return document.activeElement.classList.contains('button-take')"):
                break
        else:
            raise Failure("Tab never reached a Take button")
        outline = self.browser.js("return getComputedStyle(document.activeElement).outlineStyle")
        check(outline not in ("", "none"), f"the focus is visible (outline {outline})")
        item_id = self.browser.js("return document.activeElement.closest('.item').dataset.itemId")
        actions.send_keys(Keys.ENTER).perform()
        number = item_id.split("-")[-1]
        wait_for("the book taken by keyboard",
                 lambda: f"client-book-{number}" in self.browser.item_ids("client-books"))
        self.in_sync(what="after a take by keyboard")
        focused = self.browser.js("""const e = document.activeElement;
            return [e.closest('.item')?.dataset.itemId, e.tagName, e.className]""")
        check(focused == [item_id, "ARTICLE", "card"],
              f"with its Take gone, the focus goes to the redrawn item's card ({focused})")
        actions.send_keys(Keys.TAB).perform()
        after = self.browser.js("""const e = document.activeElement;
            return [e.closest('.item')?.dataset.itemId, e.dataset.actionId]""")
        check(after == [item_id, "return"], f"the next Tab reaches the item's new button ({after})")
        self.library.api("DELETE", f"/v1/loans/{number}")
        self.in_sync(what="after a return by API")

    # 5

    def cli_take_elsewhere(self):
        book = self.library.screen()[1]["sections"][2]["items"][6]["bookId"]
        marker = self.browser.js("document.getElementById('screen').dataset.marker = 'same page'; return 1")
        self.library.cli("--client", "1", "take", str(book))
        started = time.monotonic()
        wait_for("the CLI's take on the page",
                 lambda: f"client-book-{book}" in self.browser.item_ids("client-books"), timeout=5)
        elapsed = time.monotonic() - started
        check(elapsed < 1.0, f"the change showed within a second ({elapsed:.2f} s)")
        check(self.browser.js("return document.getElementById('screen').dataset.marker") == "same page" and marker,
              "no reload")
        self.in_sync(what="after a take in another process")

    # 6

    def refusal_in_words(self):
        """A take that the server refuses (another client was quicker) is said next to the item."""
        _, document = self.library.screen()
        book = next(item for item in document["sections"][2]["items"]
                    if item["availability"] == "available" and item["bookId"] > 8)["bookId"]
        other = self.library.token(2)
        self.browser.allowed_log.append("/v1/loans - Failed to load resource: the server responded with a "
                                        "status of 409")
        # Client 2 takes the book; once the page shows it on loan, the page's Take is clicked: the button the user
        # saw, found before client 2's take (a tap that raced the live change). The redrawn item has no Take any
        # more; the old button still runs its action, and the refusal is said next to the item as it is now.
        self.driver.execute_async_script("""
            const [book, token, done] = arguments;
            const item = [...document.querySelectorAll('.item')].find(e => e.dataset.itemId === 'book-' + book);
            window.staleTake = item.querySelector('.button-take');
            fetch('/v1/loans', {method: 'POST', headers: {'Authorization': 'Bearer ' + token,
                'Content-Type': 'application/json', 'Idempotency-Key': 'other-' + book},
                body: JSON.stringify({bookIds: [book]})}).then(response => done(response.status),
                error => done(String(error)));""", book, other)
        self.in_sync(what="after client 2's take")
        self.browser.js("window.staleTake.click(); delete window.staleTake")
        status = wait_for("the refusal next to the item", lambda: self.browser.js("""
            const item = [...document.querySelectorAll('.item')].find(e => e.dataset.itemId === arguments[0]);
            return item && item.querySelector('.status-line').textContent;""", f"book-{book}"))
        check("on loan to someone else" in status, f"the refusal in words: {status!r}")
        live = self.browser.js("""const item = [...document.querySelectorAll('.item')].find(
            e => e.dataset.itemId === arguments[0]); return item.querySelector('.status-line').getAttribute('aria-live')""",
                               f"book-{book}")
        check(live == "polite", "the refusal is read out")
        self.in_sync(what="after a refusal")
        check(f"client-book-{book}" not in self.browser.item_ids("client-books"), "nothing pretends it succeeded")
        self.library.api("DELETE", f"/v1/loans/{book}", who=2)
        self.in_sync(what="after client 2 returned the book")
        status = text(self.browser.item("library-books", f"book-{book}").find_element(By.CSS_SELECTOR, ".status-line"))
        check(status == "", f"the refusal went when the book came back: {status!r}")

    # 7

    def limit(self):
        _, document = self.library.screen()
        held = len(document["sections"][1]["items"])
        limit = document["sections"][0]["items"][0]["loanLimit"]
        free = [item["bookId"] for item in document["sections"][2]["items"] if item["availability"] == "available"]
        self.library.cli("--client", "1", "take", *[str(book) for book in free[:limit - held]])
        document = self.in_sync(what="at the limit")
        self.browser.settle()
        takes = self.driver.find_elements(By.CSS_SELECTOR, 'section[data-section-id="library-books"] .button-take')
        check(takes, "Take buttons are still there")
        for button in takes:
            check(button.get_attribute("aria-disabled") == "true", "Take is disabled at the limit")
            reason = self.driver.find_element(By.ID, button.get_attribute("aria-describedby")).text
            check(f"You have {limit} of your {limit} books" in reason, f"the reason is shown before a tap: {reason}")
            check(reason in button.find_element(By.XPATH, "./ancestor::li").text, "the reason is visible")
        self.button_names()
        before = self.browser.etag()
        self.click(takes[0])
        owner = takes[0].find_element(By.XPATH, "./ancestor::li").get_attribute("data-item-id")
        item = self.browser.item("library-books", owner)
        reason = item.find_element(By.CSS_SELECTOR, ".action-reason")
        # A tap marks the reason shown and reads it out; it does not write it a second time.
        announcer = self.driver.find_element(By.ID, "announcer")
        said = wait_for("the reason read out", lambda: "cannot take" in text(announcer) and text(announcer))
        check(said == text(reason), f"a tap reads the reason out: {said!r}")
        status = text(item.find_element(By.CSS_SELECTOR, ".status-line"))
        check(status == "", f"the reason is not said a second time on the status line: {status!r}")
        check(item.text.count(text(reason)) == 1, f"the reason shows once: {item.text!r}")
        marked = self.browser.js("""const shown = getComputedStyle(arguments[0]);
            return [shown.fontWeight, shown.color]""", reason)
        normal = self.browser.js("""const shown = getComputedStyle(arguments[0]);
            return [shown.fontWeight, shown.color]""", takes[1].find_element(By.XPATH, "./following-sibling::p"))
        check(marked != normal, f"the reason tapped for is marked ({marked}, the others {normal})")
        time.sleep(0.2)
        check(self.browser.etag() == before, "a tap on a disabled Take changes nothing")
        for width, height in SHOTS:
            self.browser.size(width, height)
            self.browser.shot(f"limit-{width}x{height}.png")
        self.browser.size(1280, 900)
        returned = [item["bookId"] for item in document["sections"][1]["items"]]
        self.library.api("DELETE", f"/v1/loans/{returned[0]}")
        self.in_sync(what="below the limit again")
        status = text(self.browser.item("library-books", owner).find_element(By.CSS_SELECTOR, ".status-line"))
        check(status == "", f"the refusal went with the limit: {status!r}")
        for book in returned[1:]:
            self.library.api("DELETE", f"/v1/loans/{book}")
        self.in_sync(what="after returning everything")

    def badge_dates(self):
        """A badge breaks between its words, never inside one: "on loan, due back 2026-12-17" keeps its date whole at
        every width from 320 to 1280 px, at 100% and 200% text size."""
        book = self.free_book()
        self.library.api("POST", "/v1/loans", 2, {"bookIds": [book]})
        self.in_sync(what="with a book on loan to someone else")
        badge = self.browser.item("library-books", f"book-{book}").find_element(By.CSS_SELECTOR, ".badge")
        check(re.search(r"\d{4}-\d{2}-\d{2}$", text(badge)), f"the badge ends with a date: {text(badge)!r}")
        broken = []
        try:
            for size in ("", "200%"):
                self.browser.js("document.documentElement.style.fontSize = arguments[0]", size)
                for width in range(320, 1281, 10):
                    self.browser.size(width, 800)
                    # The line each letter of the date is on.
                    tops = self.browser.js("""
                        const letters = [];
                        const walker = document.createTreeWalker(arguments[0], NodeFilter.SHOW_TEXT);
                        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                          for (let at = 0; at < node.length; at += 1) {
                            const range = document.createRange();
                            range.setStart(node, at);
                            range.setEnd(node, at + 1);
                            const rect = range.getClientRects()[0];
                            letters.push([node.data[at], rect ? Math.round(rect.top) : null]);
                          }
                        }
                        const text = letters.map(([letter]) => letter).join('');
                        const date = text.search(/\\d{4}-\\d{2}-\\d{2}/);
                        return letters.slice(date, date + 10).map(([, top]) => top);""", badge)
                    if len(set(tops)) != 1:
                        broken.append(f"{width} px {size or '100%'}")
        finally:
            self.browser.js("document.documentElement.style.fontSize = ''")
            self.browser.size(1280, 900)
        check(broken == [], f"the date is broken across lines at {len(broken)} sizes, such as {broken[:6]}")
        # A right-to-left badge still reads right to left, its words kept in their order.
        direction = self.driver.execute_async_script("""
            const done = arguments[0];
            import('/assets/render.js').then((render) => {
              const ui = {perform() {}, navigate() {}, explain() {}, statusOf: () => '', currentSearch: () => ''};
              const scratch = document.createElement('div');
              document.body.append(scratch);
              render.draw(scratch, {sections: [{id: 's', layout: {style: 'grid'}, supplementaries: [], items: [
                {id: 'i', title: 'ספר', lines: [], actions: [],
                 badges: [{text: 'מושאל עד 2026-12-17', style: 'muted'}]}]}],
                emptyState: null}, ui);
              const badge = scratch.querySelector('.badge');
              const result = [getComputedStyle(badge).direction, badge.textContent];
              scratch.remove();
              done(result);
            }, (error) => done(String(error)));""")
        check(direction == ["rtl", "מושאל עד 2026-12-17"], f"a right-to-left badge: {direction}")
        self.library.api("DELETE", f"/v1/loans/{book}", 2)
        self.in_sync(what="after the book came back")

    # 8

    def markup_is_text(self):
        self.library.cli("books", "add", "--title", MARKUP_TITLE, "--author", "<b>Mallory</b>", "--year", "2024")
        self.in_sync(what="after a book was added")
        self.search("onerror")
        titles = self.browser.js("return [...document.querySelectorAll('.item-title')].map(e => e.textContent)")
        check(MARKUP_TITLE in titles, f"the title with markup shows as text: {titles}")
        check(self.browser.js("return document.querySelectorAll('#screen img, #screen b').length") == 0,
              "no element was made from the text")
        try:
            self.driver.switch_to.alert
            raise Failure("an alert opened")
        except NoAlertPresentException:
            pass
        self.search("zzzzqqq")
        said = text(self.driver.find_element(By.ID, "announcer"))
        check("No books match “zzzzqqq”." in said, f"a search without a match is read out: {said!r}")
        empty = wait_for("the library's empty state", lambda: self.driver.find_elements(
            By.CSS_SELECTOR, 'section[data-section-id="library-books"] [data-kind="empty"]'))
        check("No books match" in text(empty[0]), "the library's empty state")
        check("Try other words, or see every book." in text(empty[0]),
              f"a line whose command the page offers (a search) keeps its words: {text(empty[0])!r}")
        check("librarycli" not in text(empty[0]), f"no terminal command in the empty state: {text(empty[0])!r}")
        check(self.driver.find_element(By.CSS_SELECTOR, 'section[data-section-id="library-books"] h2').is_displayed(),
              "its header stays")
        for width, height in SHOTS:
            self.browser.size(width, height)
            self.browser.shot(f"empty-search-{width}x{height}.png")
        self.browser.size(1280, 900)
        # Its Clear search button shows every book again.
        self.click(empty[0].find_element(By.CSS_SELECTOR, ".button-clear-search"))
        self.query = ""
        self.in_sync(what="after Clear search")
        box = self.driver.find_element(By.CSS_SELECTOR, 'section[data-section-id="library-books"] input[type=search]')
        check(box.get_attribute("value") == "", "the search box is empty again")
        check(self.driver.execute_script("return sessionStorage.getItem('librarycli.query')") == "",
              "the screen's query is cleared")

    def search(self, text):
        box = self.driver.find_element(By.CSS_SELECTOR, 'section[data-section-id="library-books"] input[type=search]')
        box.clear()
        box.send_keys(text)
        box.send_keys(Keys.ENTER)
        self.query = "?search=" + urllib.parse.quote(text, safe="") if text else ""
        document = self.in_sync(what=f"the search {text!r}")
        check(self.driver.execute_script("return sessionStorage.getItem('librarycli.query')") == self.query,
              "the screen's query is kept")
        self.announced("library-books", document, f"the search {text!r}")
        focused = self.browser.js("return document.activeElement.type")
        check(focused == "search", f"after a search the focus stays in the search box, not on {focused!r}")

    def announced(self, section, document, what):
        """Waits until the page has read out the section's own words (its header, count, empty state and footer)."""
        announcer = self.driver.find_element(By.ID, "announcer")
        want = summary(document, section)
        check(want, f"{what}: the section has words to read out")
        said = wait_for(f"{what} to be read out as {want!r}", lambda: text(announcer), timeout=2)
        wait_for(f"{what} to be read out as {want!r} (not {said!r})", lambda: text(announcer) == want, timeout=2)

    def focus_in_sight(self):
        """What has the focus (its tag, item id, section id), and whether it is within the window."""
        self.browser.settle()
        return self.browser.js("""const e = document.activeElement, box = e.getBoundingClientRect();
            return [e.tagName, e.closest('.item')?.dataset.itemId ?? null,
                    e.closest('section[data-section-id]')?.dataset.sectionId ?? null,
                    box.top >= 0 && box.bottom <= innerHeight]""")

    def paging(self):
        """Load more keeps the books shown and adds the next ones: the focus goes to the first new one, in sight, also
        after the last Load more (its button goes). Next and Previous page show other books: the focus goes to the
        section's heading, in sight. Each time the section's own words are read out (header, count, footer)."""
        shown = self.browser.item_ids("library-books")
        self.page_to("load-more", "?perPage=40")
        check(len(self.browser.item_ids("library-books")) == 40, "load more shows 40 books")
        focused = self.focus_in_sight()
        check(focused == ["ARTICLE", self.browser.item_ids("library-books")[len(shown)], "library-books", True],
              f"after Load more the focus goes to the first new book, in sight, not {focused}")
        for action, query in [("next-page", "?page=2&perPage=40"), ("previous-page", "?page=1&perPage=40")]:
            self.page_to(action, query)
            focused = self.focus_in_sight()
            check(focused == ["H2", None, "library-books", True],
                  f"after {action} the focus goes to the section's heading, in sight, not {focused}")
        shown = self.browser.item_ids("library-books")
        self.page_to("load-more", "?perPage=80")
        check(not self.driver.find_elements(By.CSS_SELECTOR, ".button-load-more"), "the last Load more goes")
        focused = self.focus_in_sight()
        check(focused == ["ARTICLE", self.browser.item_ids("library-books")[len(shown)], "library-books", True],
              f"after the last Load more the focus goes to the first new book, in sight, not {focused}")

    def page_to(self, action, query):
        """Clicks the library's footer button for `action` (which goes to `query`), and checks what is read out."""
        footer = self.driver.find_element(By.CSS_SELECTOR, 'section[data-section-id="library-books"] .supplementary-footer')
        self.click(footer.find_element(By.CSS_SELECTOR, f".button-{action}"))
        self.query = query
        document = self.in_sync(what=action)
        self.announced("library-books", document, action)

    # 9

    def motion_and_colours(self):
        book = self.free_book()
        self.library.api("POST", "/v1/loans", body={"bookIds": [book]})
        wait_for("an animation for the change", lambda: self.browser.js("return document.getAnimations().length > 0"),
                 timeout=3, interval=0.005)
        self.in_sync(what="with motion")
        self.browser.settle()
        self.browser.media(prefers_reduced_motion="reduce")
        self.library.api("DELETE", f"/v1/loans/{book}")
        etag, _ = self.library.screen(self.query)
        wait_for("the change", lambda: self.browser.etag() == etag)
        check(self.browser.js("return document.getAnimations().length") == 0, "no animation with reduced motion")
        self.browser.media(prefers_color_scheme="dark")
        dark = self.browser.js("return getComputedStyle(document.documentElement).backgroundColor")
        self.browser.media(prefers_color_scheme="light")
        light = self.browser.js("return getComputedStyle(document.documentElement).backgroundColor")
        check(dark != light, f"dark and light colours ({dark}, {light})")
        self.browser.media(prefers_color_scheme="dark")
        self.browser.shot("dark-1280x900.png")
        self.browser.media()

    def free_book(self):
        _, document = self.library.screen(self.query)
        return next(item["bookId"] for item in document["sections"][2]["items"] if item["availability"] == "available")

    def contract(self):
        """The change sets of random screen pairs the Swift tests keep (Tests/Browser/changeset-cases.json, with
        moves, section inserts and custom supplementaries), applied by the page's own code in both forms, and drawn:
        the result must be the new document, and the DOM its ids in order."""
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "changeset-cases.json")) as file:
            cases = json.load(file)
        failures = self.driver.execute_async_script("""
            const [cases, done] = arguments;
            Promise.all([import('/assets/changes.js'), import('/assets/render.js')]).then(([changes, render]) => {
              const failures = [];
              const ui = {perform() {}, navigate() {}, explain() {}, statusOf: () => '', currentSearch: () => ''};
              const ids = (node) => [...node.querySelectorAll(':scope > section')].map(section =>
                  [section.dataset.sectionId, ...[...section.querySelectorAll(':scope > .items > .item')]
                      .map(item => item.dataset.itemId)].join(' '));
              const want = (document) => document.sections.map(section =>
                  [section.id, ...section.items.map(item => item.id)].join(' '));
              const scratch = document.createElement('div');
              document.body.append(scratch);
              cases.forEach((entry, index) => {
                for (const form of ['standard', 'batchSafe']) {
                  const screen = {sections: entry.old.sections, emptyState: entry.old.emptyState ?? null};
                  let result;
                  try {
                    result = changes.applyChanges(screen, entry[form]);
                  } catch (error) {
                    failures.push(`case ${index} ${form}: ${error.message}`);
                    continue;
                  }
                  const expected = {sections: entry.new.sections, emptyState: entry.new.emptyState ?? null};
                  if (JSON.stringify(result) !== JSON.stringify(expected)) {
                    failures.push(`case ${index} ${form}: applied, it is not the new document`);
                  }
                  scratch.replaceChildren();
                  render.draw(scratch, screen, ui);
                  render.draw(scratch, result, ui);
                  if (JSON.stringify(ids(scratch)) !== JSON.stringify(want(entry.new))) {
                    failures.push(`case ${index} ${form}: drawn ${ids(scratch)}`);
                  }
                }
              });
              scratch.remove();
              done(failures);
            }, (error) => done([String(error)]));""", cases)
        check(failures == [], f"{len(failures)} of {2 * len(cases)} change sets: {failures[:5]}")

    # 10

    def replay(self, seed=20261129, steps=60):
        """Random takes, returns, renewals and book adds by four clients and a librarian, through the API and the
        command line; after each, the page (applying the live change sets) must show the server's screen."""
        rng = random.Random(seed)
        phases = [("/", "", steps // 3), ("/?changes=batch-safe", "?search=replay", steps // 3),
                  ("/?live=poll", "", steps - 2 * (steps // 3))]
        added = 0
        for address, query, count in phases:
            self.driver.get(self.page + address)
            wait_for("the screen", lambda: self.browser.item_ids("client-info"), timeout=10)
            if query != self.query:
                self.search(urllib.parse.parse_qs(query[1:]).get("search", [""])[0])
            self.in_sync(what=f"replay start {address}")
            for step in range(count):
                who = rng.choice([1, 1, 2, 3, 4])
                _, mine = self.library.screen(query, who)
                held = [item["bookId"] for item in mine["sections"][1]["items"]]
                library = mine["sections"][2]["items"]
                free = [item["bookId"] for item in library if item["availability"] == "available"]
                kind = rng.choice(["take", "take", "return", "renew", "add"])
                if kind == "take" and free:
                    books = rng.sample(free, min(len(free), rng.choice([1, 1, 2])))
                    if rng.random() < 0.3:
                        self.library.cli("--client", str(who), "take", *map(str, books), check_exit=False)
                    else:
                        self.library.api("POST", "/v1/loans" + query, who, {"bookIds": books})
                elif kind in ("return", "renew") and held:
                    book = rng.choice(held)
                    if kind == "return":
                        self.library.api("DELETE", f"/v1/loans/{book}", who)
                    else:
                        self.library.api("POST", f"/v1/loans/{book}/renewal", who, {})
                else:
                    added += 1
                    title = f"Replay {rng.choice(['Alpha', 'Omega', 'Mu', 'كتاب', '本'])} {added}"
                    self.library.api("POST", "/v1/books", "librarian", {
                        "title": title, "author": "Seeded Random", "year": 2000 + added, "pages": 10 + added})
                self.in_sync(query, timeout=5, what=f"replay {address} step {step} ({kind} by {who})")
            counts = self.browser.counts()
            check(counts["mismatches"] == 0 and counts["reloads"] == 0, f"every change set fitted: {counts}")
            check(counts["applied"] >= count // 2, f"change sets were applied ({address}): {counts}")
        self.driver.get(self.page + "/")
        wait_for("the screen", lambda: self.browser.item_ids("client-info"), timeout=10)
        if self.query:
            self.search("")

    # 11

    def resume(self):
        """After a dropped connection the page resumes: from the last version when the server still has it
        (Last-Event-ID), else with the whole screen ("changes": null) from a server that never saw that version."""
        counts = self.browser.counts()
        connections = self.proxy.accepted
        # The network's own complaints about the cut (Chromium logs them as errors); the page's are still errors.
        self.browser.allowed_log += ["Failed to load resource: net::ERR_INCOMPLETE_CHUNKED_ENCODING",
                                     "Failed to load resource: net::ERR_EMPTY_RESPONSE",
                                     "Failed to load resource: net::ERR_CONNECTION_RESET"]
        self.proxy.drop()
        book = self.free_book()
        self.library.cli("--client", "1", "take", str(book))
        self.in_sync(timeout=15, what="after the connection dropped")
        after = self.browser.counts()
        check(self.proxy.accepted > connections, "the page connected again")
        check(after["applied"] > counts["applied"] and after["reloads"] == counts["reloads"],
              f"resumed with the change set since Last-Event-ID, not the whole screen: {counts} -> {after}")

        self.library.stop_server()
        self.library.cli("--client", "1", "return", str(book))
        self.library.start_server()
        self.in_sync(timeout=20, what="after the server restarted")
        check(self.browser.counts()["reloads"] == after["reloads"] + 1, "a new server sends the whole screen once")

    def status_of(self, section, item_id):
        return text(self.browser.item(section, item_id).find_element(By.CSS_SELECTOR, ".status-line"))

    def notice(self):
        notice = self.driver.find_element(By.ID, "notice")
        return text(notice) if notice.is_displayed() else ""

    def sign_in_as(self, card, pin):
        self.driver.find_element(By.ID, "card").clear()
        self.driver.find_element(By.ID, "card").send_keys(card)
        self.driver.find_element(By.ID, "pin").send_keys(pin)
        self.driver.find_element(By.ID, "sign-in-submit").click()
        wait_for("the screen", lambda: self.browser.item_ids("client-info"), timeout=10)
        self.query = ""

    def offline(self):
        """While the library cannot be reached: a take says so next to the book, and that goes when the library is
        back; a read says only that it cannot be reached and that the page tries again; Sign out says the session
        could not be ended on the server, the sign-in page shows no connection notice, and its demo clients come
        back with the server, when the page ends the session there and says so."""
        self.browser.allowed_log += ["net::ERR_EMPTY_RESPONSE", "net::ERR_CONNECTION_RESET",
                                     "net::ERR_CONNECTION_REFUSED", "net::ERR_CONNECTION_CLOSED",
                                     "net::ERR_INCOMPLETE_CHUNKED_ENCODING", "net::ERR_SOCKET_NOT_CONNECTED"]
        book = self.free_book()
        take = self.browser.item("library-books", f"book-{book}").find_element(By.CSS_SELECTOR, ".button-take")
        self.library.stop_server()
        wait_for("the reconnecting notice", lambda: "Reconnecting" in self.notice(), timeout=10)
        self.click(take)
        status = wait_for("the take's failure", lambda: self.status_of("library-books", f"book-{book}"), timeout=15)
        check("cannot be reached" in status, f"the take's failure in words: {status!r}")
        self.library.start_server()
        self.in_sync(timeout=20, what="after the server came back")
        wait_for("the failure to go", lambda: self.status_of("library-books", f"book-{book}") == "")
        wait_for("the notice to go", lambda: self.notice() == "")

        self.library.stop_server()
        box = self.driver.find_element(By.CSS_SELECTOR, 'section[data-section-id="library-books"] input[type=search]')
        box.clear()
        box.send_keys("kafka", Keys.ENTER)
        notice = wait_for("the read's failure", lambda: "tries again" in self.notice() and self.notice(), timeout=15)
        check(notice == "The library cannot be reached right now. The page tries again in a few seconds.",
              f"a read that failed says only that: {notice!r}")
        self.library.start_server()
        self.query = "?search=kafka"
        document = self.in_sync(timeout=20, what="the search after the server came back")
        # Drawn by a retry, the search is followed up as any other: its words read out, the focus still in the box.
        self.announced("library-books", document, "the search drawn once the server came back")
        focused = self.browser.js("return document.activeElement.type")
        check(focused == "search", f"after a search drawn by a retry the focus stays in the box, not on {focused!r}")
        wait_for("the notice to go", lambda: self.notice() == "")
        self.search("")

        self.library.stop_server()
        wait_for("the reconnecting notice", lambda: "Reconnecting" in self.notice(), timeout=10)
        self.driver.find_element(By.ID, "sign-out").click()
        wait_for("the sign-in form", lambda: self.driver.find_element(By.ID, "sign-in").is_displayed(), timeout=10)
        said = text(self.driver.find_element(By.ID, "sign-in-error"))
        check("could not be ended on the server" in said and "signed out." not in said,
              f"Sign out says the session was not ended: {said!r}")
        check(self.driver.execute_script("return sessionStorage.getItem('librarycli.token')") is None,
              "the token is forgotten all the same")
        check(self.notice() == "", f"no connection notice on the sign-in page: {self.notice()!r}")
        # As the page said, that session is still good on the server while it is away...
        def live_sessions():
            tokens = json.loads(self.library.cli("--json", "tokens").stdout)["tokens"]
            return [token for token in tokens if token.get("label") == "sign-in" and not token.get("revokedAt")]
        check(len(live_sessions()) == 1, f"the session the page could not end is still valid: {live_sessions()}")
        check("as soon as the library can be reached again" in said, f"and it says it will end it: {said!r}")
        self.library.start_server()
        wait_for("the demo clients back", lambda: self.driver.find_element(By.ID, "demo").is_displayed(), timeout=15)
        # ... and the page ends it once the server answers again.
        wait_for("the session ended once the server is back", lambda: live_sessions() == [], timeout=15)
        # ... and no longer says it could not.
        error = self.driver.find_element(By.ID, "sign-in-error")
        said = wait_for("the page to say the session ended", lambda: "could not" not in text(error) and text(error))
        check("You are signed out" in said and "has ended" in said, f"what the page says then: {said!r}")
        check(self.driver.execute_script("return sessionStorage.getItem('librarycli.pendingSignOut')") is None,
              "nothing left to end")
        self.sign_in_as("C-0001", "1111")
        self.in_sync(what="signed in again")

    def offline_paging(self):
        """Next page pressed while the server is stopped: once it is back and a retry draws page 2, the page reads out
        the section's words and the focus goes to its heading, in sight, as when it is drawn at once. Meanwhile the
        notice (an alert, read out each time its text is set) says each thing once: "Reconnecting to the library…"
        across the failed reconnects, "The library cannot be reached right now…" across the failed retries."""
        self.browser.js("""window.noticeLog = [];
            new MutationObserver(() => noticeLog.push(document.getElementById('notice').textContent))
                .observe(document.getElementById('notice'), {childList: true, characterData: true, subtree: true});""")
        self.library.stop_server()
        wait_for("the reconnecting notice", lambda: "Reconnecting" in self.notice(), timeout=10)
        time.sleep(2.5)  # a few more failed reconnects (after 0.5, 1 and 2 s)
        self.browser.js("document.getElementById('announcer').textContent = ''")
        footer = self.driver.find_element(By.CSS_SELECTOR,
                                          'section[data-section-id="library-books"] .supplementary-footer')
        self.browser.js("arguments[0].focus()", footer.find_element(By.CSS_SELECTOR, ".button-next-page"))
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        wait_for("the read's failure", lambda: "tries again" in self.notice(), timeout=15)
        time.sleep(6.5)  # two more failed retries, 3 s apart
        self.library.start_server()
        self.query = "?page=2"
        document = self.in_sync(timeout=20, what="page 2 once the server came back")
        self.announced("library-books", document, "page 2 drawn once the server came back")
        focused = self.focus_in_sight()
        check(focused == ["H2", None, "library-books", True],
              f"after a Next page drawn by a retry the focus goes to the section's heading, in sight, not {focused}")
        wait_for("the notice to go", lambda: self.notice() == "")
        written = self.browser.js("return noticeLog")
        check(written == ["Reconnecting to the library…",
                          "The library cannot be reached right now. The page tries again in a few seconds.", ""],
              f"the notice says each thing once: {written}")
        self.search("")

    def revoked(self):
        """A token revoked elsewhere signs the page out: it forgets the token (none goes with sign-in or the demo
        list), shows the demo clients and no notice, and signing in again works."""
        self.browser.allowed_log.append("the server responded with a status of 401")
        tokens = json.loads(self.library.cli("--json", "tokens").stdout)["tokens"]
        live = [token for token in tokens if token.get("label") == "sign-in" and not token.get("revokedAt")]
        check(len(live) == 1, f"one sign-in token: {live}")
        self.library.cli("tokens", "revoke", str(live[0]["id"]))
        wait_for("the sign-in page", lambda: self.driver.find_element(By.ID, "sign-in").is_displayed(), timeout=15)
        check(self.driver.execute_script("return sessionStorage.getItem('librarycli.token')") is None,
              "the revoked token is forgotten")
        wait_for("the demo clients", lambda: self.driver.find_element(By.ID, "demo").is_displayed())
        time.sleep(0.5)
        check(self.notice() == "", f"no connection notice on the sign-in page: {self.notice()!r}")
        self.sign_in_as("C-0001", "1111")
        self.in_sync(what="signed in after the revoke")

    def long_texts(self):
        """A card number of 94 characters wraps in the bar at 320 px; a title of 300 letters without a space and a
        list of 49 authors (800 characters) do not stretch the cards of their row or grid, and are cut with the whole
        text as a tooltip; the skip link stays out of sight at 320 px and 200% text size."""
        card = "CARD" + "X" * 90
        added = json.loads(self.library.cli("--json", "clients", "add", "Long Card", "--card", card).stdout)
        client = added["client"]["id"]
        self.library.cli("clients", "pin", str(client), input="5678\n")
        title = "Long" + "o" * 300
        self.library.cli("books", "add", "--title", title, "--author", "Wide", "--year", "2024")
        _, document = self.library.screen("?search=" + title[:40], client)
        long_book = document["sections"][2]["items"][0]["bookId"]
        authors = ", ".join(f"Author Number {number}" for number in range(1, 50))
        self.library.cli("books", "add", "--title", "Many Hands", "--author", authors, "--year", "2007")
        _, document = self.library.screen("?search=Many%20Hands", client)
        many_authors = document["sections"][2]["items"][0]["bookId"]
        self.library.api("POST", "/v1/loans", client, {"bookIds": [long_book, many_authors, self.free_book()]})
        if not self.driver.find_element(By.ID, "sign-in").is_displayed():
            self.driver.find_element(By.ID, "sign-out").click()
            wait_for("the sign-in form", lambda: self.driver.find_element(By.ID, "sign-in").is_displayed())
        self.sign_in_as(card, "5678")
        heights = self.browser.js("""return [...document.querySelectorAll(
            'section[data-section-id="client-books"] .card')].map(e => e.getBoundingClientRect().height)""")
        check(len(heights) == 3 and max(heights) < 250, f"the row's cards keep a sane height: {heights}")
        clamps = self.browser.js("""const clamp = (selector) => {
                const node = document.querySelector(selector);
                return node && getComputedStyle(node).webkitLineClamp; };
            return [clamp('section[data-layout="row"] .item-title'),
                    clamp('section[data-layout="row"] .item-subtitle'),
                    clamp('section[data-layout="grid"] .item-title'),
                    clamp('section[data-layout="grid"] .item-line')]""")
        check(clamps == ["3", "3", "3", "4"],
              f"titles and subtitles are cut after 3 lines, a grid's lines after 4: {clamps}")

        def tooltips(section):
            """Per item: the title's and the subtitle's tooltip (None without one), and whether the subtitle is cut."""
            return self.browser.js("""return Object.fromEntries([...document.querySelectorAll(
                `section[data-section-id="${arguments[0]}"] > .items > .item`)].map(item => {
                  const title = item.querySelector('.item-title'), subtitle = item.querySelector('.item-subtitle');
                  return [item.dataset.itemId, [title.getAttribute('title'), subtitle.getAttribute('title'),
                    subtitle.scrollHeight > subtitle.clientHeight + 1, subtitle.textContent]];
                }))""", section)
        shown = tooltips("client-books")
        byline = f"{authors} · 2007"
        check(shown[f"client-book-{many_authors}"][1:] == [byline, True, byline],
              f"the authors are cut, and whole in the tooltip: {shown[f'client-book-{many_authors}']}")
        check(shown[f"client-book-{long_book}"][:2] == [title, None],
              f"the long title is cut with a tooltip, its short subtitle is not: {shown[f'client-book-{long_book}']}")
        check(all(entry[0] is None and entry[1] is None for item, entry in shown.items()
                  if item not in (f"client-book-{long_book}", f"client-book-{many_authors}")),
              f"texts shown whole have no tooltip: {shown}")
        # In the grid too (found with the search box; the screen is this client's, not client 1's).
        box = self.driver.find_element(By.CSS_SELECTOR, 'section[data-section-id="library-books"] input[type=search]')
        box.clear()
        box.send_keys("Many Hands", Keys.ENTER)
        wait_for("the book in the grid", lambda: self.browser.item_ids("library-books") == [f"book-{many_authors}"])
        height = self.browser.item("library-books", f"book-{many_authors}").rect["height"]
        check(height < 300, f"the grid's card keeps a sane height: {height}")
        check(tooltips("library-books")[f"book-{many_authors}"][1:] == [byline, True, byline],
              "the grid's authors are cut, and whole in the tooltip")
        box = self.driver.find_element(By.CSS_SELECTOR, 'section[data-section-id="library-books"] input[type=search]')
        box.clear()
        box.send_keys(Keys.ENTER)
        wait_for("every book again", lambda: len(self.browser.item_ids("library-books")) > 1)
        self.browser.size(320, 800)
        check(self.overflow() <= 0, f"nothing wider than the page at 320 px with a long card ({self.overflow()} px)")
        self.browser.js("document.documentElement.style.fontSize = '200%'")
        try:
            self.browser.settle()
            check(self.overflow() <= 0, f"nothing wider at 320 px and 200% text ({self.overflow()} px)")
            # No card of the row is wider than the row (so none is cut at its right), and the search box wraps
            # under the header with its button rather than shrinking to a sliver.
            widths = self.browser.js("""const row = document.querySelector(
                'section[data-section-id="client-books"] > .items');
                return [row.clientWidth, ...[...row.querySelectorAll(':scope > .item')].map(e => e.offsetWidth)]""")
            check(max(widths[1:]) <= widths[0], f"the row's cards fit in the row ({widths[0]} px): {widths[1:]}")
            search = self.browser.js("""const section = document.querySelector(
                'section[data-section-id="library-books"]');
                return [section.clientWidth, section.querySelector('.search-input').offsetWidth]""")
            check(search[1] >= 0.75 * search[0], f"the search box is {search[1]} px wide of {search[0]}")
            bottom = self.browser.js("return document.querySelector('.skip').getBoundingClientRect().bottom")
            check(bottom <= 0, f"the skip link is out of sight until focused (its bottom at {bottom} px)")
            self.browser.js("document.querySelector('.skip').focus()")
            top = self.browser.js("return document.querySelector('.skip').getBoundingClientRect().top")
            check(top >= 0, f"the focused skip link is in sight (top at {top} px)")
            self.browser.shot("long-texts-320x800-200pct.png")
        finally:
            self.browser.js("document.documentElement.style.fontSize = ''")
            self.browser.size(1280, 900)

    def populated(self):
        """Screenshots of the demo library with two books taken (README's docs/screen.png is the wide one)."""
        self.library.api("POST", "/v1/loans", body={"bookIds": [12]})
        self.in_sync(what="the populated screen")
        for width, height in SHOTS:
            self.browser.size(width, height)
            self.browser.shot(f"screen-{width}x{height}.png")
        self.browser.size(1280, 900)

    # 12

    def sign_out(self):
        self.driver.find_element(By.ID, "sign-out").click()
        wait_for("the sign-in form", lambda: self.driver.find_element(By.ID, "sign-in").is_displayed())
        check(self.driver.execute_script("return sessionStorage.getItem('librarycli.token')") is None,
              "the token is forgotten")
        tokens = json.loads(self.library.cli("--json", "tokens").stdout)
        sign_ins = [token for token in tokens["tokens"] if token.get("label") == "sign-in"]
        check(sign_ins and all(token.get("revokedAt") for token in sign_ins), "sign-out revoked the token")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--server-pid-file", required=True)
    parser.add_argument("--server-log", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--only", help="run only the tests whose names contain this")
    args = parser.parse_args()

    # SIGTERM (from run.sh's trap or a timeout) ends the run through the finally blocks below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    library = Library(args)
    proxy = Proxy(library.port)
    browser = Browser(args.output)
    tests = Tests(library, browser, proxy)
    order = ["sign_in", "matches_cli", "librarian_lines", "columns", "take_and_return", "renew", "keyboard",
             "cli_take_elsewhere", "populated", "refusal_in_words", "limit", "badge_dates", "markup_is_text", "paging",
             "motion_and_colours", "contract", "replay", "resume", "offline", "offline_paging",
             "revoked", "sign_out", "long_texts"]
    failed = None
    started = time.monotonic()
    try:
        for name in order:
            if args.only and args.only not in name and name not in ("sign_in",):
                continue
            began = time.monotonic()
            try:
                getattr(tests, name)()
                errors = browser.console_errors()
                if errors:
                    raise Failure(f"console errors: {errors}")
            except (Failure, WebDriverException, subprocess.SubprocessError, OSError, StopIteration) as error:
                failed = name
                print(f"FAIL {name}: {error}", file=sys.stderr)
                traceback.print_exc()
                try:
                    browser.shot(f"failure-{name}.png")
                    with open(os.path.join(args.output, f"failure-{name}.html"), "w") as file:
                        file.write(browser.driver.page_source)
                except Exception:
                    pass
                break
            print(f"ok   {name} ({time.monotonic() - began:.1f} s)")
    finally:
        browser.quit()
        proxy.close()
        if library.restarted and library.restarted.poll() is None:
            library.restarted.terminate()
            library.restarted.wait(timeout=10)
    print(f"{'FAILED' if failed else 'passed'} in {time.monotonic() - started:.1f} s; screenshots in {args.output}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
