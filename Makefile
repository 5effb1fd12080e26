# Two commands for a new machine: `make run` and `make test` (see README.md).
SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-quick venv bench clean-var

$(STAMP): requirements.txt
	@test -x $(PY) || { py=$$(scripts/find-python) && scripts/services.sh venv "$$py" && "$$py" -m venv $(VENV); }
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	@touch $(STAMP)

venv: $(STAMP)

var/secret_key:
	@mkdir -p var
	@$(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > $@
	@chmod 600 $@

# Set up and run the app: migrate, load the demo game once (printing logins),
# then the web server, a Celery worker and beat.
run: venv var/secret_key
	@export SECRET_KEY=$$(cat var/secret_key) ALLOWED_HOSTS=$${ALLOWED_HOSTS:-localhost,127.0.0.1,0.0.0.0}; \
	$(PY) manage.py migrate --noinput -v0 && \
	$(PY) manage.py collectstatic --noinput -v0 && \
	$(PY) manage.py setup_demo && \
	{ [[ ! "$${HTTPS,,}" =~ ^(1|true|yes|on)$$ ]] || scripts/make-certificate; } && \
	exec $(PY) manage.py rungame

# Set up and run every test, in parallel (starts Redis, and PostgreSQL when
# DATABASE_URL points at it, installing Debian's packages when missing).
# A subset: make test ARGS="tests/orda -x" (ARGS go to pytest as they are).
test: venv
	@scripts/test.sh $(ARGS)

# Everything but the Chromium and real-worker tests (about two minutes).
test-quick: venv
	@scripts/test.sh -m "not browser and not worker" $(ARGS)

bench: venv
	$(PY) benchmarks/run.py

clean-var:
	rm -rf var
