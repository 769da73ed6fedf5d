// The data side of the engine in-process: DistributedSampler indices against PyTorch's own (python3-torch), the
// IDX reader on the real Fashion-MNIST files and on damaged copies, and the linspace dataset against numpy's.

#include "train/datasets.h"
#include "train/errors.h"
#include "train/idx_reader.h"
#include "train/sampler.h"

#include "worker_harness.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

namespace {

std::vector<std::int64_t> toVector(const at::Tensor& t) {
    return std::vector<std::int64_t>(t.data_ptr<std::int64_t>(), t.data_ptr<std::int64_t>() + t.numel());
}

void writeIdx(const QString& path, const std::vector<std::uint32_t>& dims, int dataBytes, char magicType = 0x08) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray header;
    header.append(char(0)).append(char(0)).append(magicType).append(char(dims.size()));
    for (std::uint32_t d : dims)
        for (int shift = 24; shift >= 0; shift -= 8)
            header.append(char((d >> shift) & 0xff));
    f.write(header);
    QByteArray data(dataBytes, '\0');
    for (int i = 0; i < dataBytes; ++i)
        data[i] = char(i % 10);
    f.write(data);
}

QString errorCodeOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const train::TrainError& e) {
        return QString::fromStdString(e.code());
    }
    return QStringLiteral("no error");
}

} // namespace

class TestDataPipeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void samplerMatchesPytorch_data() {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("world");
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("epoch");
        QTest::newRow("10 over 3 (padding)") << 10 << 3 << 5 << 0;
        QTest::newRow("10 over 3, epoch 1") << 10 << 3 << 5 << 1;
        QTest::newRow("1000 over 2") << 1000 << 2 << 0 << 3;
        QTest::newRow("7 over 4 (pad > half)") << 7 << 4 << 11 << 2;
    }
    void samplerMatchesPytorch() {
        QFETCH(int, size);
        QFETCH(int, world);
        QFETCH(int, seed);
        QFETCH(int, epoch);
        QString script = QStringLiteral(
            "import json, sys, torch\n"
            "from torch.utils.data import DistributedSampler\n"
            "n, w, seed, epoch = map(int, sys.argv[1:5])\n"
            "out = []\n"
            "for r in range(w):\n"
            "    s = DistributedSampler(range(n), num_replicas=w, rank=r, shuffle=True, seed=seed)\n"
            "    s.set_epoch(epoch)\n"
            "    out.append(list(s))\n"
            "print(json.dumps(out))\n");
        QByteArray json = runPython(script, {QString::number(size), QString::number(world), QString::number(seed),
                                             QString::number(epoch)});
        QJsonArray expected = QJsonDocument::fromJson(json).array();
        QCOMPARE(expected.size(), world);
        for (int r = 0; r < world; ++r) {
            train::DistributedSampler sampler(size, r, world, static_cast<std::uint64_t>(seed));
            std::vector<std::int64_t> mine = toVector(sampler.indices(epoch));
            QJsonArray want = expected[r].toArray();
            QCOMPARE(static_cast<int>(mine.size()), want.size());
            for (int i = 0; i < want.size(); ++i)
                QCOMPARE(mine[static_cast<size_t>(i)], static_cast<std::int64_t>(want[i].toInt()));
        }
    }

    void shardsAreOneRanksBatches() {
        // N ranks x batch b, step k, covers exactly the samples of one rank's batch N*b at step k.
        const int n = 96, world = 3, b = 4;
        train::DistributedSampler one(n, 0, 1, 9);
        std::vector<std::int64_t> all = toVector(one.indices(0));
        std::vector<std::vector<std::int64_t>> shards;
        for (int r = 0; r < world; ++r)
            shards.push_back(toVector(train::DistributedSampler(n, r, world, 9).indices(0)));
        for (int k = 0; k < n / (world * b); ++k) {
            std::vector<std::int64_t> together(all.begin() + k * world * b, all.begin() + (k + 1) * world * b);
            std::vector<std::int64_t> split;
            for (int r = 0; r < world; ++r)
                split.insert(split.end(), shards[r].begin() + k * b, shards[r].begin() + (k + 1) * b);
            std::sort(together.begin(), together.end());
            std::sort(split.begin(), split.end());
            QCOMPARE(split, together);
        }
    }

    void readsFashionMnist() {
        train::Dataset d = train::loadIdxDataset(fashionDir().toStdString());
        QCOMPARE(d.x.size(0), 60000);
        QCOMPARE(d.x.sizes(), (c10::IntArrayRef{60000, 1, 28, 28}));
        QCOMPARE(d.xTest.size(0), 10000);
        QCOMPARE(d.y.max().item<std::int64_t>(), 9);
        QCOMPARE(d.y.min().item<std::int64_t>(), 0);
        // Normalised with Fashion-MNIST's own statistics: mean ~0, std ~1.
        QVERIFY(std::abs(d.x.mean().item<double>()) < 0.01);
        QVERIFY(std::abs(d.x.std().item<double>() - 1.0) < 0.01);
    }

    void damagedIdxFiles() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString images = dir.filePath("train-images-idx3-ubyte");
        const QString labels = dir.filePath("train-labels-idx1-ubyte");
        writeIdx(images, {20, 28, 28}, 20 * 28 * 28);
        writeIdx(labels, {20}, 20);
        train::Dataset d = train::loadIdxDataset(dir.path().toStdString());
        QCOMPARE(d.x.size(0), 20);
        QVERIFY(!d.hasTest());

        writeIdx(images, {20, 28, 28}, 10 * 28 * 28); // header promises 20 images, holds 10
        QCOMPARE(errorCodeOf([&] { train::loadIdxDataset(dir.path().toStdString()); }), QStringLiteral("DATA_CORRUPT"));
        writeIdx(images, {20, 28, 28}, 20 * 28 * 28, 0x0D); // float IDX: not supported
        QCOMPARE(errorCodeOf([&] { train::loadIdxDataset(dir.path().toStdString()); }), QStringLiteral("DATA_CORRUPT"));
        writeIdx(images, {20, 28, 28}, 20 * 28 * 28);
        writeIdx(labels, {19}, 19); // count mismatch
        QCOMPARE(errorCodeOf([&] { train::loadIdxDataset(dir.path().toStdString()); }), QStringLiteral("DATA_CORRUPT"));
        QFile::remove(labels);
        QCOMPARE(errorCodeOf([&] { train::loadIdxDataset(dir.path().toStdString()); }), QStringLiteral("DATA_MISSING"));
        QCOMPARE(errorCodeOf([&] { train::loadIdxDataset(dir.filePath("nope").toStdString()); }),
                 QStringLiteral("DATA_MISSING"));
    }

    void truncatedGzip() {
        if (!train::idxGzipSupported())
            QSKIP("this build has no zlib");
        QTemporaryDir dir;
        QFile src(fashionDir() + "/train-labels-idx1-ubyte.gz");
        QVERIFY(src.open(QIODevice::ReadOnly));
        QByteArray packed = src.readAll();
        QFile dst(dir.filePath("cut.gz"));
        QVERIFY(dst.open(QIODevice::WriteOnly));
        dst.write(packed.left(packed.size() / 2));
        dst.close();
        QCOMPARE(errorCodeOf([&] { train::readIdxFile(dir.filePath("cut.gz").toStdString()); }),
                 QStringLiteral("DATA_CORRUPT"));
        train::IdxArray whole = train::readIdxFile((fashionDir() + "/train-labels-idx1-ubyte.gz").toStdString());
        QCOMPARE(whole.dims, (std::vector<std::int64_t>{60000}));
    }

    void linspaceMatchesNumpy() {
        train::Dataset d = train::makeLinspaceDataset(10000, 1000);
        QByteArray out = runPython(QStringLiteral("import numpy as np\n"
                                                  "for i in (0, 1, 4321, 9999):\n"
                                                  "    v = np.linspace(0, i, 1000).astype(np.float32)\n"
                                                  "    print(repr(float(v[1])), repr(float(v[500])), repr(float(v[999])))\n"));
        const std::int64_t rows[] = {0, 1, 4321, 9999};
        QList<QByteArray> lines = out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QList<QByteArray> v = lines[i].split(' ');
            QCOMPARE(d.x[rows[i]][1].item<float>(), v[0].toFloat());
            QCOMPARE(d.x[rows[i]][500].item<float>(), v[1].toFloat());
            QCOMPARE(d.x[rows[i]][999].item<float>(), v[2].toFloat());
        }
    }
};

QTEST_GUILESS_MAIN(TestDataPipeline)
#include "test_data_pipeline.moc"
