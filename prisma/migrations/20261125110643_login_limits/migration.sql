-- CreateTable
CREATE TABLE "login_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "login_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "login_limits_expire_idx" ON "login_limits"("expire");
