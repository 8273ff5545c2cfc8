FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DATABASE_PATH=/data/fudaba.db
WORKDIR /app

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY assets ./assets
RUN pip install --no-cache-dir .

RUN useradd --create-home fudaba && mkdir -p /data && chown fudaba /data
USER fudaba
VOLUME ["/data"]

CMD ["python", "-m", "bot"]
